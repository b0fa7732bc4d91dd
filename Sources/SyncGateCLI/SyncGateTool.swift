import SyncGate

/// The `syncgate` program: parses the arguments, runs the subcommand, and returns the exit status.
public enum SyncGateTool {
    /// Runs `syncgate` with the arguments that follow the program name and returns the exit status.
    public static func main(arguments: [String]) async -> Int32 {
        let command: Command
        do {
            let invocation = try CommandLineParser.parseInvocation(arguments)
            command = invocation.command
            if invocation.verbose { SyncGateLog.install(StderrLogger(minimumLevel: .debug)) }
        } catch {
            let subcommand = arguments.first { $0 != "--verbose" }
            let topic = subcommand.flatMap(Command.Subcommand.init(rawValue:)).map { " \($0.rawValue)" } ?? ""
            Output.error("\(error.message) (see 'syncgate\(topic) --help')")
            return ExitCode.usage
        }
        let log: @Sendable (String) -> Void = { Output.error($0) }
        switch command {
        case .help(let topic):
            Output.line(HelpText.text(for: topic))
            return ExitCode.success
        case .version:
            Output.line(HelpText.version)
            return ExitCode.success
        case .status(let json):
            return StatusCommand.status(json: json, machine: MachineEnvironment(), style: Output.style)
        case .watch(let json):
            let signals = SignalWatcher()
            return await StatusCommand.watch(
                json: json, environment: makeEnvironment(), style: Output.style, signals: signals.signals)
        case .wait(let options):
            let signals = SignalWatcher()
            return await WaitCommand.execute(
                options, environment: makeEnvironment(), signals: signals.signals, log: log)
        case .run(let options):
            let signals = SignalWatcher()
            return await RunCommand.execute(
                options, environment: makeEnvironment(), signals: signals.signals, log: log)
        case .demo(let options):
            let signals = SignalWatcher()
            return await DemoCommand.execute(
                options, style: Output.style, width: Output.terminalWidth, signals: signals.signals)
        case .daemon(let options):
            let signals = SignalWatcher()
            return await DaemonCommand.execute(options, signals: signals.signals)
        case .submit, .jobs, .cancel, .logs, .setCondition:
            let signals = SignalWatcher()
            return await ClientCommands.execute(command, client: DaemonClient(), signals: signals.signals)
        }
    }

    /// The environment of this machine: network and power where the platform has sources.
    static func makeEnvironment() -> SyncEnvironment {
        MachineEnvironment().environment
    }
}
