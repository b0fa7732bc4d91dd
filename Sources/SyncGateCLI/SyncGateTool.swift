import SyncGate

/// The `syncgate` program: parses the arguments, runs the subcommand, and returns the exit status.
package enum SyncGateTool {
    /// Runs `syncgate` with the arguments that follow the program name and returns the exit status.
    package static func main(arguments: [String]) async -> Int32 {
        Output.checked(await run(arguments: arguments))
    }

    /// Parses the arguments and runs the subcommand; its status before stdout's writes are checked.
    private static func run(arguments: [String]) async -> Int32 {
        let command: Command
        do {
            let invocation = try CommandLineParser.parseInvocation(arguments)
            command = invocation.command
            if invocation.verbose { SyncGateLog.install(StderrLogger(minimumLevel: .debug)) }
        } catch {
            let subcommand = arguments.first { $0 != "--verbose" }
            let topic = subcommand.flatMap(Subcommands.named).map { " \($0.name)" } ?? ""
            Output.error("\(error.line) (see 'syncgate\(topic) --help')")
            return ExitCode.usage
        }
        switch command {
        case .help(let topic):
            Output.line(HelpText.text(for: topic))
            return ExitCode.success
        case .version:
            Output.line(HelpText.version)
            return ExitCode.success
        case .invoke(let subcommand):
            // Before anything the command opens: short of descriptors, it would fail part way (see
            // DescriptorReserve), or trap inside libdispatch.
            if let shortage = DescriptorReserve.shortage() {
                Output.error("\(shortage)")
                return ExitCode.failure
            }
            return await subcommand.run()
        }
    }

    /// The environment of this machine: network and power where the platform has sources; the
    /// process's one ``MachineEnvironment/process(pressureThresholds:)``, created with
    /// `pressureThresholds` by the first call.
    static func environment(pressureThresholds: PressureThresholds) -> SyncEnvironment {
        MachineEnvironment.process(pressureThresholds: pressureThresholds).environment
    }
}
