import SyncGate

/// `syncgate status`: the environment once, with the source of each part.
package struct StatusCommand: Subcommand {
    /// `status`.
    package static let name = "status"
    /// The row under USAGE.
    package static let synopsis = "syncgate status [--json] [options]"
    /// The summary under USAGE.
    package static let summary = "the environment now"
    /// `--json` and `--pressure-threshold`.
    package static let options = [
        CommandLineOption(
            "--json",
            help: [
                "one JSON object (schemaVersion 1): network, power, account,",
                "cloudDrive, syncEvent, conditions, requirements [{name, holds,",
                "monitored}], presets, met, treatedAsMet",
            ]),
        ParsedArguments.pressureThresholdOption,
    ]
    /// None.
    package static let operands = CommandLineOperands.none

    /// The help of `syncgate status`.
    package static func help(_ sections: HelpText.Sections) -> String {
        """
        USAGE: syncgate status [--json] [--pressure-threshold LIST]

        Prints the environment now: connected, interface (kind, and the default route's interface
        name), the network in use (what --network matches: the interface name, NetworkManager's
        connection and Wi-Fi SSID), expensive, constrained, power, battery, account, cloud drive,
        and which requirements and presets hold. A part without a source is shown as "not monitored,
        treated as met". The pressure row (JSON: resources.pressureThresholds) shows the thresholds
        in effect, those of --pressure-threshold when given.

        OPTIONS
        \(sections.options)

        EXAMPLE
          syncgate status --json | jq .met
        """
    }

    /// Whether to print one JSON object instead of lines.
    package var json: Bool
    /// The thresholds of the machine's environment (`--pressure-threshold`).
    package var pressureThresholds: PressureThresholds

    /// Creates the invocation.
    package init(json: Bool = false, pressureThresholds: PressureThresholds = .default) {
        self.json = json
        self.pressureThresholds = pressureThresholds
    }

    /// Reads `--json` and `--pressure-threshold`.
    package init(parsing arguments: ParsedArguments) throws(UsageError) {
        self.init(json: arguments.flag("--json"), pressureThresholds: try arguments.pressureThresholds())
    }

    /// Prints the status of this machine, its environment created with ``pressureThresholds``, once;
    /// returns 0.
    package func run() async -> Int32 {
        Self.status(
            json: json, machine: MachineEnvironment.process(pressureThresholds: pressureThresholds),
            style: Output.style)
    }

    /// The report for the environment's status now, with the default route's interface name.
    package static func report(_ status: SyncEnvironmentStatus, sources: StatusOrigins? = nil) -> StatusReport {
        StatusReport(
            status: status,
            interfaceName: status.connectivity.isConnected ? DefaultRouteTable.currentInterfaceName() : nil,
            time: Output.timestamp(),
            sources: sources
        )
    }

    /// Prints the status once, with the source of each field; returns 0.
    package static func status(json: Bool, machine: MachineEnvironment, style: TerminalStyle) -> Int32 {
        let report = report(machine.environment.status, sources: machine.sources)
        if json {
            Output.line(report.json.pretty)
        } else {
            for line in report.lines(style: style) { Output.line(line) }
        }
        return ExitCode.success
    }
}
