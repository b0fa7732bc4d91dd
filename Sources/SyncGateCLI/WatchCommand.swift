import SyncGate

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `syncgate watch`: the environment now, then one line per change until a signal arrives.
package struct WatchCommand: Subcommand {
    /// `watch`.
    package static let name = "watch"
    /// The row under USAGE.
    package static let synopsis = "syncgate watch [--json] [options]"
    /// The summary under USAGE.
    package static let summary = "one line per change, until interrupted"
    /// `--json` and `--pressure-threshold`.
    package static let options = [
        CommandLineOption(
            "--json", help: ["one JSON object per line, in the schema of 'status --json',", "for every change"]),
        ParsedArguments.pressureThresholdOption,
    ]
    /// None.
    package static let operands = CommandLineOperands.none

    /// The help of `syncgate watch`.
    package static func help(_ sections: HelpText.Sections) -> String {
        """
        USAGE: syncgate watch [--json] [--pressure-threshold LIST]

        Prints the environment now and then one line per change, each with an ISO 8601 UTC time,
        until SIGINT (exit 130) or SIGTERM (exit 143), or until nothing reads its output any more
        (a pipe's reader exited, as in 'syncgate watch | head -1': exit 141, at once, without
        waiting for the next change). A change that would print the same text (free space moving
        by a few bytes) prints nothing.

        OPTIONS
        \(sections.options)

        EXAMPLE
          syncgate watch
        """
    }

    /// Whether each change is one JSON object per line instead of text.
    package var json: Bool
    /// The thresholds of the machine's environment (`--pressure-threshold`).
    package var pressureThresholds: PressureThresholds

    /// Creates the invocation: text lines, or with `json` one JSON object per line.
    package init(json: Bool = false, pressureThresholds: PressureThresholds = .default) {
        self.json = json
        self.pressureThresholds = pressureThresholds
    }

    /// Reads `--json` and `--pressure-threshold`.
    package init(parsing arguments: ParsedArguments) throws(UsageError) {
        self.init(json: arguments.flag("--json"), pressureThresholds: try arguments.pressureThresholds())
    }

    /// Watches this machine until SIGINT or SIGTERM (returns 128 + the signal's number), or until its
    /// output's reader goes away (141).
    package func run() async -> Int32 {
        guard let signals = SignalWatcher.reporting(SignalWatcher.process) else { return ExitCode.failure }
        return await Self.watch(
            json: json, environment: SyncGateTool.environment(pressureThresholds: pressureThresholds),
            style: Output.style, signals: signals.signals)
    }

    /// Prints the status and then one line per change until a signal arrives (returns 128 + its number),
    /// nothing reads the output any more (returns 128 + `SIGPIPE`, as a failed write would have), or a
    /// write fails otherwise (returns ``ExitCode/failure`` after a line on stderr: ``Output/checked(_:)``).
    ///
    /// In text, a change that would print the same line but for the time (free space moving by bytes) prints
    /// nothing; JSON prints every change (see ``WatchLineFilter``).
    ///
    /// While it watches, every demand-driven fact (free space, pressure, heat) is read as if a job needed it
    /// (on its observer's timer or trigger).
    package static func watch(
        json: Bool,
        environment: SyncEnvironment,
        style: TerminalStyle,
        signals: AsyncStream<Int32>
    ) async -> Int32 {
        environment.demand.retain(.demandDriven)
        defer { environment.demand.release(.demandDriven) }
        return await SignalRace.run(signals: signals) {
            await SignalRace.first(
                {
                    var filter = WatchLineFilter(json: json, style: style)
                    for await status in environment.statusStream {
                        if let line = filter.line(for: StatusCommand.report(status)) { Output.line(line) }
                        // A write that failed ends the watch, with the status that says why.
                        if Output.stdoutFailure != nil { return Output.checked(ExitCode.success) }
                    }
                    return nil
                },
                // Nobody reads the lines any more: end as a write would have, by SIGPIPE's status.
                { await OutputHangup.wait() ? ExitCode.signaled(SIGPIPE) : nil },
                otherwise: nil)
        }
    }
}
