import SyncGate

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `syncgate wait`: returns when the requirements hold, on timeout, or on a signal.
package struct WaitCommand: Subcommand {
    /// `wait`.
    package static let name = "wait"
    /// The row under USAGE.
    package static let synopsis = "syncgate wait (--require LIST | --network LIST) [--timeout DUR]"
    /// The summary under USAGE.
    package static let summary = "wait until the requirements hold"
    /// `--require`, `--network`, `--timeout`, `--condition` and `--pressure-threshold`.
    package static let options = [
        CommandLineOption("--require", .text("LIST"), help: ["the requirements (see below)"]),
        ParsedArguments.networkOption,
        CommandLineOption(
            "--timeout", .duration, help: ["how long to wait; 0s answers from the current state without waiting"]),
        CommandLineOption(
            "--condition", .text("NAME"), repeatable: true,
            help: [
                "also wait for an app-defined condition. A lone syncgate process never",
                "sets conditions, so this only ends by timeout or signal (for testing).",
            ]),
        ParsedArguments.pressureThresholdOption,
    ]
    /// None.
    package static let operands = CommandLineOperands.none

    /// The help of `syncgate wait`.
    package static func help(_ sections: HelpText.Sections) -> String {
        """
        USAGE: syncgate wait (--require LIST | --network LIST) [--timeout DUR] [--condition NAME]...
                             [--pressure-threshold LIST]

        Exits 0 as soon as the requirements hold (at once when they already do), 124 when --timeout
        runs out first, 130 on SIGINT and 143 on SIGTERM.

        OPTIONS
        \(sections.options)
        \(sections.durations)

        \(sections.requirementList)

        EXAMPLE
          syncgate wait --require network,unmetered --timeout 5m && ./sync.sh
        """
    }

    /// The requirements to wait for.
    package var requirements: SyncRequirements
    /// App-defined conditions to wait for; a lone `syncgate` process never sets any.
    package var conditions: Set<SyncCondition>
    /// How long to wait; `nil` waits until the requirements hold or a signal arrives, and zero answers
    /// from the current state without waiting.
    package var timeout: Duration?
    /// The networks to wait for (`--network`); `nil` for any.
    package var allowedNetworks: SyncNetworkAllowlist?
    /// The thresholds of the machine's environment (`--pressure-threshold`), which decide
    /// `not-under-pressure`.
    package var pressureThresholds: PressureThresholds

    /// Creates the invocation.
    package init(
        requirements: SyncRequirements, conditions: Set<SyncCondition> = [], timeout: Duration? = nil,
        allowedNetworks: SyncNetworkAllowlist? = nil, pressureThresholds: PressureThresholds = .default
    ) {
        self.requirements = requirements
        self.conditions = conditions
        self.timeout = timeout
        self.allowedNetworks = allowedNetworks
        self.pressureThresholds = pressureThresholds
    }

    /// Reads `--require` (needed), `--network`, `--condition`, `--timeout` and `--pressure-threshold`.
    package init(parsing arguments: ParsedArguments) throws(UsageError) {
        let requirements = try arguments.requiredRequirements()
        self.init(
            requirements: requirements, conditions: try arguments.conditions(),
            timeout: try arguments.duration("--timeout"), allowedNetworks: try arguments.allowedNetworks(),
            pressureThresholds: try arguments.pressureThresholds())
    }

    /// Waits on this machine's environment; see ``execute(_:environment:signals:log:)``.
    ///
    /// The process ends on the thread that sees the requirements come to hold, inside the environment's
    /// change: nothing is printed on success and nothing is held that needs closing, so the answer is not
    /// held up by a hop to the waiting task and then to the main thread.
    package func run() async -> Int32 {
        let environment = SyncGateTool.environment(pressureThresholds: pressureThresholds)
        let options = self
        let exitWhenMet = environment.statusBroadcast.addObserver { status in
            if status.satisfies(
                options.requirements, allowedNetworks: options.allowedNetworks, conditions: options.conditions)
            {
                _exit(ExitCode.success)
            }
        }
        defer { environment.statusBroadcast.removeObserver(exitWhenMet) }
        guard let signals = SignalWatcher.reporting(SignalWatcher.process) else { return ExitCode.failure }
        return await Self.execute(self, environment: environment, signals: signals.signals, log: { Output.error($0) })
    }

    /// Waits and returns the exit status: 0 when the requirements hold, ``ExitCode/timedOut`` on timeout,
    /// 128 + N on signal N (130 for SIGINT).
    ///
    /// - Parameters:
    ///   - options: what to wait for and how long.
    ///   - environment: the environment to follow.
    ///   - signals: signals that end the wait.
    ///   - log: where explanations go (stderr in the tool).
    package static func execute(
        _ options: WaitCommand,
        environment: SyncEnvironment,
        signals: AsyncStream<Int32>,
        log: @escaping @Sendable (String) -> Void
    ) async -> Int32 {
        await SignalRace.run(signals: signals) {
            do {
                _ = try await environment.waitUntil(
                    options.requirements,
                    allowedNetworks: options.allowedNetworks,
                    conditions: options.conditions,
                    timeout: options.timeout
                )
                return ExitCode.success
            } catch SyncEnvironmentError.timedOut {
                let status = environment.status
                let timeout = options.timeout.map(DurationParser.format) ?? "?"
                log("timed out after \(timeout); still unmet: \(unmetText(options, status))")
                return ExitCode.timedOut
            } catch SyncEnvironmentError.cancelled {
                return nil
            } catch {
                log("\(error)")
                return ExitCode.failure
            }
        }
    }

    /// The requirements and conditions of `options` that do not hold in `status`.
    static func unmetText(_ options: WaitCommand, _ status: SyncEnvironmentStatus) -> String {
        let requirements = status.unmetRequirements(options.requirements).names
        let conditions = status.unmetConditions(options.conditions).map { "condition \($0.name)" }.sorted()
        let network =
            status.allows(options.allowedNetworks)
            ? []
            : [
                "network \(options.allowedNetworks.map(\.description) ?? "") (in use: \(StatusReport.networkText(of: status)))"
            ]
        let all = requirements + conditions + network
        return all.isEmpty ? "nothing (they hold now)" : all.joined(separator: ", ")
    }
}
