import SyncGate

/// `syncgate status` and `syncgate watch`: the environment once, or one line per change.
public enum StatusCommand {
    /// The report for the environment's status now, with the default route's interface name.
    public static func report(_ status: SyncEnvironmentStatus, sources: StatusOrigins? = nil) -> StatusReport {
        StatusReport(
            status: status,
            interfaceName: status.connectivity.isConnected ? DefaultRouteTable.currentInterfaceName() : nil,
            time: Output.timestamp(),
            sources: sources
        )
    }

    /// Prints the status once, with the source of each field; returns 0.
    public static func status(json: Bool, machine: MachineEnvironment, style: TerminalStyle) -> Int32 {
        let report = report(machine.environment.status, sources: machine.sources)
        if json {
            Output.line(report.json.pretty)
        } else {
            for line in report.lines(style: style) { Output.line(line) }
        }
        return ExitCode.success
    }

    /// Prints the status and then one line per change until a signal arrives; returns 128 + its number.
    ///
    /// In text, a change that would print the same line but for the time (free space moving by bytes) prints
    /// nothing; JSON prints every change (see ``WatchLineFilter``).
    ///
    /// While it watches, the free space is read as if a job needed it (on the storage observer's timer).
    public static func watch(
        json: Bool,
        environment: SyncEnvironment,
        style: TerminalStyle,
        signals: AsyncStream<Int32>
    ) async -> Int32 {
        environment.demand.retain(.storageNotLow)
        defer { environment.demand.release(.storageNotLow) }
        return await SignalRace.run(signals: signals) {
            var filter = WatchLineFilter(json: json, style: style)
            for await status in environment.statusStream {
                if let line = filter.line(for: report(status)) { Output.line(line) }
            }
            return nil
        }
    }
}
