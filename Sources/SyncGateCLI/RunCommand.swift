import SyncGate

/// `syncgate run`: runs a command through a ``SyncGate/SyncScheduler`` job when the requirements hold.
///
/// * The command starts once the requirements hold (at once when they already do); with `--timeout`, the
///   run ends with ``ExitCode/timedOut`` if they do not hold in time. A timeout of zero answers from the
///   current state: the command runs if they hold now, else the run times out at once.
/// * SIGINT, SIGTERM and SIGHUP are forwarded to a running command, which then ends the run with its own status
///   (no retry); while no command runs, they end the run with 128 + the signal number.
/// * A non-zero exit is retried `--retries` times with exponential backoff (`--backoff`, doubling, up to
///   32 times the first delay; a backoff of zero retries at once); the run exits with the last attempt's
///   status.
/// * With `--stop-on-loss`, losing the requirements sends the command SIGTERM, then SIGKILL after the
///   grace period; it runs again, without using up a retry, when they hold again. Without it, a running
///   command is left alone.
package struct RunCommand: Subcommand {
    /// `run`.
    package static let name = "run"
    /// The row under USAGE.
    package static let synopsis = "syncgate run --require LIST [options] -- COMMAND [ARGS...]"
    /// The summary under USAGE.
    package static let summary = "run a command when they hold"
    /// The options, in the order of the help.
    package static let options = [
        CommandLineOption("--require", .text("LIST"), help: ["the requirements (see below)"]),
        ParsedArguments.networkOption,
        CommandLineOption(
            "--timeout", .duration,
            help: [
                "how long to wait for them before the first start; exit 124 after.",
                "0s runs the command only if they hold now",
            ]),
        CommandLineOption(
            "--retries", .text("N"), help: ["run a failing command (non-zero exit) up to N more times (0...1000)"]),
        CommandLineOption(
            "--backoff", .duration,
            help: [
                "the delay before the first retry, doubling each time up to 32 times",
                "itself (default 1s); 0s retries at once",
            ]),
        CommandLineOption(
            "--stop-on-loss",
            help: [
                "when the requirements stop holding, send the command SIGTERM (SIGKILL",
                "after the grace period) and run it again when they return, without",
                "using up a retry",
            ]),
        CommandLineOption(
            "--grace", .duration, help: ["time between SIGTERM and SIGKILL (default 5s); 0s kills at once"]),
        CommandLineOption(
            "--condition", .text("NAME"), repeatable: true,
            help: ["also require an app-defined condition (never set by a lone syncgate)"]),
        ParsedArguments.pressureThresholdOption,
    ]
    /// The command follows the options.
    package static let operands = CommandLineOperands.command

    /// The help of `syncgate run`.
    package static func help(_ sections: HelpText.Sections) -> String {
        """
        USAGE: syncgate run (--require LIST | --network LIST) [--timeout DUR] [--retries N] [--backoff DUR]
                            [--stop-on-loss] [--grace DUR] [--condition NAME]...
                            [--pressure-threshold LIST] -- COMMAND [ARGS...]

        Runs COMMAND as a SyncScheduler job once the requirements hold, and exits with its status.

        OPTIONS
        \(sections.options)
        \(sections.durations)
        SIGINT, SIGTERM and SIGHUP are forwarded to the running command; the run then ends with its status.
        While no command runs, they end the run with 130 or 143.

        \(sections.requirementList)

        EXAMPLE
          syncgate run --require unmetered,external-power --retries 3 -- rsync -a ~/photos backup:
        """
    }

    /// The default backoff before the first retry.
    package static let defaultBackoff: Duration = .seconds(1)
    /// The default time between SIGTERM and SIGKILL when the command is stopped.
    package static let defaultGracePeriod: Duration = .seconds(5)

    /// The requirements that must hold before the command starts.
    package var requirements: SyncRequirements
    /// App-defined conditions that must hold; a lone `syncgate` process never sets any.
    package var conditions: Set<SyncCondition>
    /// How long to wait for the requirements before the first start; `nil` waits indefinitely, and zero
    /// runs the command only if they hold now (else the run times out at once).
    package var timeout: Duration?
    /// How many times a failed command is run again.
    package var retries: Int
    /// The delay before the first retry; it doubles after each failure, up to 32 times this value.
    /// Zero retries at once.
    package var backoff: Duration
    /// Whether the command is stopped when the requirements stop holding and run again when they return.
    package var stopOnLoss: Bool
    /// How long a stopped command gets between SIGTERM and SIGKILL; zero sends SIGKILL right after
    /// SIGTERM.
    package var gracePeriod: Duration
    /// The command and its arguments.
    package var command: [String]
    /// The networks the command may run on (`--network`); `nil` for any. With `--stop-on-loss`, leaving
    /// them stops the command like a loss of the requirements.
    package var allowedNetworks: SyncNetworkAllowlist?
    /// The thresholds of the machine's environment (`--pressure-threshold`), which decide
    /// `not-under-pressure`.
    package var pressureThresholds: PressureThresholds = .default

    /// Creates the invocation.
    package init(
        requirements: SyncRequirements,
        conditions: Set<SyncCondition> = [],
        timeout: Duration? = nil,
        retries: Int = 0,
        backoff: Duration = RunCommand.defaultBackoff,
        stopOnLoss: Bool = false,
        gracePeriod: Duration = RunCommand.defaultGracePeriod,
        command: [String]
    ) {
        self.requirements = requirements
        self.conditions = conditions
        self.timeout = timeout
        self.retries = retries
        self.backoff = backoff
        self.stopOnLoss = stopOnLoss
        self.gracePeriod = gracePeriod
        self.command = command
    }

    /// Reads `--require` (needed), the command (needed) and the other options.
    package init(parsing arguments: ParsedArguments) throws(UsageError) {
        let requirements = try arguments.requiredRequirements()
        guard !arguments.operands.isEmpty else { throw UsageError("'run' needs a command after '--'") }
        self.init(requirements: requirements, conditions: try arguments.conditions(), command: arguments.operands)
        timeout = try arguments.duration("--timeout")
        retries = try arguments.retries() ?? retries
        backoff = try arguments.duration("--backoff") ?? backoff
        gracePeriod = try arguments.duration("--grace") ?? gracePeriod
        stopOnLoss = arguments.flag("--stop-on-loss")
        allowedNetworks = try arguments.allowedNetworks()
        pressureThresholds = try arguments.pressureThresholds()
    }

    /// Runs the command on this machine's environment; see ``execute(_:environment:signals:log:launcher:)``.
    package func run() async -> Int32 {
        guard let signals = SignalWatcher.reporting(SignalWatcher.process) else { return ExitCode.failure }
        #if os(Linux)
            // This executable, as the command's launcher: the command ends with the tool (see JobLauncher).
            let launcher: String? = "/proc/self/exe"
        #else
            let launcher: String? = nil
        #endif
        return await Self.execute(
            self, environment: SyncGateTool.environment(pressureThresholds: pressureThresholds),
            signals: signals.signals, log: { Output.error($0) }, launcher: launcher)
    }

    /// The command exited with a non-zero status.
    struct CommandFailed: Error, CustomStringConvertible {
        var exit: ChildExitStatus
        var description: String { "the command \(exit)" }
    }

    /// The run was interrupted by a signal before the command could start.
    struct Interrupted: Error {
        var signal: Int32
    }

    /// What the signal handler and the job's operation share.
    private struct Shared {
        var child: ChildProcess?
        var signal: Int32?
        var lastExit: ChildExitStatus?
    }

    /// Runs the command and returns the exit status of the run.
    ///
    /// - Parameters:
    ///   - options: the requirements, the command and how to retry it.
    ///   - environment: the environment that gates the command.
    ///   - signals: signals to forward to the command (or that end the run while none runs).
    ///   - log: where the tool's own messages go (stderr in the tool).
    ///   - launcher: this tool's executable, to start each attempt through ``JobLauncher`` (the command
    ///     then gets SIGKILL when the tool's process ends, however it ends), or `nil` to spawn it directly.
    package static func execute(
        _ options: RunCommand,
        environment: SyncEnvironment,
        signals: AsyncStream<Int32>,
        log: @escaping @Sendable (String) -> Void,
        launcher: String? = nil
    ) async -> Int32 {
        if options.timeout == .zero
            && !environment.status.satisfies(
                options.requirements, allowedNetworks: options.allowedNetworks, conditions: options.conditions)
        {
            return timedOut(options, environment: environment, log: log)
        }
        let scheduler = SyncScheduler(environment: environment)
        let shared = LockedState(Shared())
        let name = options.command[0]
        let retry: RetryPolicy =
            if options.retries == 0 {
                .none
            } else if options.backoff == .zero {
                .fixed(delay: .zero, maxAttempts: options.retries + 1)
            } else {
                .exponential(
                    initial: options.backoff,
                    multiplier: 2,
                    maxDelay: options.backoff * 32,
                    maxAttempts: options.retries + 1,
                    jitter: 0
                )
            }
        var job = SyncJob(
            id: "run",
            requires: options.requirements,
            conditions: options.conditions,
            // A zero timeout was answered above: the requirements hold now, so the command starts at once.
            startDeadline: options.timeout == .zero ? nil : options.timeout,
            retry: retry,
            onRequirementsLost: options.stopOnLoss ? .cancelAndRequeue : .keepRunning
        ) { _ in
            try await runOnce(options, launcher: launcher, shared: shared)
        }
        job.options.allowedNetworks = options.allowedNetworks

        let events = scheduler.events
        let logger = Task {
            for await event in events where event.jobID == job.id {
                switch event {
                case .started(_, let attempt) where attempt > 1:
                    log("starting \(name) (attempt \(attempt) of \(options.retries + 1))")
                case .retryScheduled(_, let attempt, let delay):
                    let exit = shared.withLock { $0.lastExit }.map { "\($0)" } ?? "failed"
                    log(
                        "\(name) \(exit); attempt \(attempt) of \(options.retries + 1) in \(DurationParser.format(delay))"
                    )
                case .requeued(_, let lost):
                    var names = lost.names
                    if !environment.status.allows(options.allowedNetworks) { names.append("network") }
                    log(
                        "requirements lost (\(names.joined(separator: ", "))); \(name) was stopped and runs again when they hold"
                    )
                default:
                    break
                }
            }
        }
        defer { logger.cancel() }

        let handle: SyncJobHandle
        do {
            handle = try scheduler.submit(job)
        } catch {
            log("\(error)")
            return ExitCode.failure
        }
        if case .waiting(let unmet, let conditions) = handle.state,
            !(unmet.isEmpty && conditions.isEmpty && !handle.isWaitingForNetwork)
        {
            var names = unmet.names + conditions.map { "condition \($0.name)" }.sorted()
            if handle.isWaitingForNetwork, let allowed = options.allowedNetworks {
                names.append("network \(allowed) (in use: \(StatusReport.networkText(of: environment.status)))")
            }
            log("waiting for \(names.joined(separator: ", ")) before running \(name)")
        }

        // Signals go to the running command (or cancel the job while none runs) until the job ends.
        let outcome = await SignalRace.first(
            { try? await handle.outcome() },
            {
                for await signal in signals {
                    let child = shared.withLock { shared -> ChildProcess? in
                        shared.signal = shared.signal ?? signal
                        return shared.child
                    }
                    if let child {
                        child.signal(signal)
                    } else {
                        handle.cancel()
                    }
                }
                return nil
            },
            otherwise: SyncJobOutcome.cancelled
        )
        await scheduler.shutdown(gracePeriod: .zero)
        return exitCode(for: outcome, options: options, environment: environment, shared: shared, log: log)
    }

    private static func exitCode(
        for outcome: SyncJobOutcome,
        options: RunCommand,
        environment: SyncEnvironment,
        shared: LockedState<Shared>,
        log: @Sendable (String) -> Void
    ) -> Int32 {
        switch outcome {
        case .succeeded:
            return ExitCode.success
        case .failed(let error as CommandFailed):
            return error.exit.exitCode
        case .failed(let error as ChildProcess.SpawnError):
            log(error.description)
            return error.exitCode
        case .failed(let error as Interrupted):
            return ExitCode.signaled(error.signal)
        case .failed(let error):
            log("\(error)")
            return ExitCode.failure
        case .cancelled:
            return shared.withLock { $0.signal }.map(ExitCode.signaled) ?? ExitCode.failure
        case .expired:
            return timedOut(options, environment: environment, log: log)
        }
    }

    /// Says what is still unmet when the timeout ran out, and returns ``ExitCode/timedOut``.
    private static func timedOut(
        _ options: RunCommand,
        environment: SyncEnvironment,
        log: @Sendable (String) -> Void
    ) -> Int32 {
        let waitOptions = WaitCommand(
            requirements: options.requirements, conditions: options.conditions,
            allowedNetworks: options.allowedNetworks)
        let timeout = options.timeout.map(DurationParser.format) ?? "?"
        log(
            "timed out after \(timeout) before running \(options.command[0]); still unmet: "
                + WaitCommand.unmetText(waitOptions, environment.status)
        )
        return ExitCode.timedOut
    }

    /// One attempt: starts the command, waits for it, and turns its end into the job's result.
    private static func runOnce(_ options: RunCommand, launcher: String?, shared: LockedState<Shared>) async throws {
        let child = try shared.withLock { shared throws -> ChildProcess in
            if let signal = shared.signal { throw SyncJobError.doNotRetry(Interrupted(signal: signal)) }
            do {
                let child = try ChildProcess(arguments: options.command, launcher: launcher)
                shared.child = child
                return child
            } catch {
                throw SyncJobError.doNotRetry(error)
            }
        }
        let exit = await withTaskCancellationHandler {
            await child.exitStatus()
        } onCancel: {
            child.terminate(gracePeriod: options.gracePeriod)
        }
        let forwarded = shared.withLock { shared in
            shared.child = nil
            shared.lastExit = exit
            return shared.signal != nil
        }
        if exit.isSuccess { return }
        if forwarded { throw SyncJobError.doNotRetry(CommandFailed(exit: exit)) }
        if Task.isCancelled { throw CancellationError() }
        throw CommandFailed(exit: exit)
    }
}
