import SyncGate

/// `syncgate demo`: a dozen app jobs on this machine's real network and power, with a simulated account,
/// cloud drive and app conditions, shown live (or as plain lines) and summarised at the end.
///
/// Jobs that need something this machine lacks (no network, on battery) wait and then expire at their
/// start deadline, with the reason, so the demo ends on any machine: after about 8 seconds at `--speed 1`.
package struct DemoCommand: Subcommand {
    /// `demo`.
    package static let name = "demo"
    /// The row under USAGE.
    package static let synopsis = "syncgate demo [--speed N] [--plain]"
    /// The summary under USAGE.
    package static let summary = "a dozen app jobs, live"
    /// `--speed` and `--plain`.
    package static let options = [
        CommandLineOption("--speed", .text("N"), help: ["run the timeline N times faster (0.1...100; tests use 20)"]),
        CommandLineOption("--plain", help: ["plain lines even on a terminal"]),
    ]
    /// None.
    package static let operands = CommandLineOperands.none

    /// The help of `syncgate demo`.
    package static func help(_ sections: HelpText.Sections) -> String {
        """
        USAGE: syncgate demo [--speed N] [--plain]

        Runs a dozen jobs an app might submit to SyncScheduler, against this machine's real network
        and power, with a simulated account (signed out at first), cloud drive and app conditions.
        Jobs wait, start, fail, retry and finish; jobs that need something this machine lacks wait
        and then expire at their start deadline. Live display on a terminal, plain lines otherwise,
        then a summary. Takes about 8 seconds.

        OPTIONS
        \(sections.options)

        EXAMPLE
          syncgate demo
        """
    }

    /// The range of `--speed`.
    package static let speedRange = 0.1...100.0

    /// How many times faster than real time the demo's timeline runs (1 for the normal pace).
    package var speed: Double
    /// Whether to print plain lines even when stdout is a terminal.
    package var plain: Bool

    /// Creates the invocation.
    package init(speed: Double = 1, plain: Bool = false) {
        self.speed = speed
        self.plain = plain
    }

    /// Reads `--speed` (within ``speedRange``) and `--plain`.
    package init(parsing arguments: ParsedArguments) throws(UsageError) {
        self.init()
        if let text = arguments.value("--speed") {
            guard let speed = Double(text), Self.speedRange.contains(speed) else {
                throw UsageError(
                    "invalid speed '\(text)' for --speed: expected a number from "
                        + "\(Self.speedRange.lowerBound) to \(Int(Self.speedRange.upperBound))"
                )
            }
            self.speed = speed
        }
        plain = arguments.flag("--plain")
    }

    /// Runs the demo on this terminal; see ``execute(_:style:width:signals:)``.
    package func run() async -> Int32 {
        guard let signals = SignalWatcher.reporting(SignalWatcher.make()) else { return ExitCode.failure }
        return await Self.execute(self, style: Output.style, width: Output.terminalWidth, signals: signals.signals)
    }

    /// Seconds of the timeline after which anything still unfinished is cancelled.
    static let hardStop = 12.0

    /// Runs the demo and returns its exit status (0, or 128 + N when signal N stopped it).
    ///
    /// - Parameters:
    ///   - options: the speed and whether to force plain lines.
    ///   - style: colors and whether a live display is possible.
    ///   - width: the terminal's width.
    ///   - signals: signals that stop the demo.
    package static func execute(
        _ options: DemoCommand,
        style: TerminalStyle,
        width: Int,
        signals: AsyncStream<Int32>
    ) async -> Int32 {
        // The simulated parts are fed by hand through the same public path an app's own sources take.
        let account = StatusFeed(AccountStatus.noAccount)
        let cloudDrive = StatusFeed(false)
        let environment = SyncEnvironment(
            connectivity: ConnectivityObserver(),
            power: PowerObserver(),
            account: account,
            cloudDrive: cloudDrive
        )
        let scheduler: SyncScheduler
        do {
            scheduler = try SyncScheduler(environment: environment, configuration: .init(maxConcurrentJobs: 3))
        } catch {
            Output.error("\(error)")
            return ExitCode.failure
        }
        let live = style.isInteractive && !options.plain
        let display = DemoDisplay(style: style, width: width)
        let board = DemoBoard(plans: DemoJobPlan.all, simulatedParts: [.account, .cloudDrive])
        let clock = ContinuousClock()
        let start = clock.now
        let speed = options.speed
        let elapsed: @Sendable () -> Double = {
            let (seconds, attoseconds) = (clock.now - start).components
            return (Double(seconds) + Double(attoseconds) / 1e18) * speed
        }
        let scaled: @Sendable (Double) -> Duration = { .nanoseconds(Int64($0 / speed * 1e9)) }

        for line in introduction(environment: environment, speed: speed, style: style) { Output.line(line) }

        var handles: [SyncJobHandle] = []
        for plan in DemoJobPlan.all {
            let narrate: @Sendable (String) -> Void = { text in
                let now = elapsed()
                board.narrate(text, at: now)
                if !live { Output.line(display.plainNarration(text, at: now)) }
            }
            let job = makeJob(
                plan, board: board, environment: environment, scaled: scaled, elapsed: elapsed, narrate: narrate)
            do {
                let handle = try scheduler.submit(job)
                board.update(plan.id) { $0.handle = handle }
                handles.append(handle)
            } catch {
                Output.error("\(error)")
                return ExitCode.failure
            }
        }

        let watchers = handles.map { handle in
            Task {
                for await state in handle.states {
                    let now = elapsed()
                    board.update(handle.id) { row in
                        if case .waiting(let unmet, let conditions) = state, !(unmet.isEmpty && conditions.isEmpty) {
                            row.lastBlocker = board.blocker(unmet: unmet, conditions: conditions)
                        }
                        if state.isTerminal { row.finishedAt = now }
                    }
                    if !live, let row = board.row(handle.id) {
                        Output.line(display.plainLine(state, row, board: board, at: now))
                    }
                    if state.isTerminal { break }
                }
            }
        }
        let script = Task {
            for entry in DemoJobPlan.script {
                try await clock.sleep(until: start + scaled(entry.at))
                board.narrate(entry.narration, at: elapsed())
                if !live { Output.line(display.plainNarration(entry.narration, at: elapsed())) }
                switch entry.step {
                case .signIn: account.send(.available)
                case .cloudDriveAvailable: cloudDrive.send(true)
                case .setCondition(let condition): try environment.setCondition(condition, isMet: true)
                case .cancel(let id, let reason):
                    board.update(id) { $0.cancelReason = reason }
                    scheduler.cancel(jobID: id)
                }
            }
            try await clock.sleep(until: start + scaled(hardStop))
            scheduler.cancelAll()
        }
        let renderer = Task {
            guard live else { return }
            var drawn = 0
            Output.write("\u{1B}[?25l")
            while !Task.isCancelled {
                drawn = redraw(
                    display.liveLines(board: board, elapsed: elapsed(), environment: environmentLine(environment)),
                    over: drawn)
                try? await Task.sleep(for: .milliseconds(100))
            }
            _ = redraw(
                display.liveLines(board: board, elapsed: elapsed(), environment: environmentLine(environment)),
                over: drawn)
            Output.write("\u{1B}[?25h")
        }

        let submitted = handles
        // The demo's exit status: 0 once every job and watcher is done, 128 + N on signal N. A signal
        // cancels the wait, which stops the watchers at once (the jobs go on until the shutdown below), so
        // no job line comes after the interruption's message.
        let status = await SignalRace.run(signals: signals) {
            await withTaskCancellationHandler {
                for handle in submitted { _ = try? await handle.outcome() }
                for watcher in watchers { await watcher.value }
                return Task.isCancelled ? nil : ExitCode.success
            } onCancel: {
                for watcher in watchers { watcher.cancel() }
            }
        }
        script.cancel()
        renderer.cancel()
        _ = await script.result
        await renderer.value
        if status != ExitCode.success {
            Output.line("interrupted; cancelling the jobs")
            await scheduler.shutdown(gracePeriod: .zero)
            return status
        }
        await scheduler.shutdown(gracePeriod: .zero)
        Output.line("")
        // The summary reads the scheduler's history: every job's outcome and attempt count.
        let finished = scheduler.jobs(matching: SyncJobQuery(tags: [DemoJobPlan.tag]))
        for line in display.summary(board: board, jobs: finished, elapsed: elapsed()) { Output.line(line) }
        if speed != 1 { Output.line(style.paint("(times are on the demo's timeline, run \(speed)× faster)", .dim)) }
        return ExitCode.success
    }

    private static func makeJob(
        _ plan: DemoJobPlan,
        board: DemoBoard,
        environment: SyncEnvironment,
        scaled: @escaping @Sendable (Double) -> Duration,
        elapsed: @escaping @Sendable () -> Double,
        narrate: @escaping @Sendable (String) -> Void
    ) -> SyncJob {
        var retry = RetryPolicy.none
        if let plan = plan.retry {
            retry =
                plan.exponential
                ? .exponential(
                    initial: scaled(plan.delay), multiplier: 2, maxDelay: scaled(plan.delay * 8),
                    maxAttempts: plan.attempts, jitter: 0)
                : .fixed(delay: scaled(plan.delay), maxAttempts: plan.attempts)
        }
        return SyncJob(
            id: plan.id,
            requires: plan.requirements,
            conditions: plan.conditions,
            priority: plan.priority,
            startDeadline: plan.startDeadline.map(scaled),
            retry: retry,
            serialGroup: plan.serialGroup,
            tags: [DemoJobPlan.tag]
        ) { context in
            board.update(plan.id) { row in
                row.attempts = context.attempt
                row.progress = 0
                if row.startedAt == nil { row.startedAt = elapsed() }
            }
            let failure =
                context.attempt <= plan.failures.count ? plan.failures[context.attempt - 1] : plan.fatalFailure
            let steps = failure == nil ? 10 : 5
            for step in 1...steps {
                try await Task.sleep(for: scaled(plan.work / 10))
                board.update(plan.id) { $0.progress = Double(step) / 10 }
                context.reportProgress(Double(step) / 10, message: "step \(step) of 10")
            }
            if let failure {
                board.update(plan.id) { $0.failures.append(failure) }
                if failure == plan.fatalFailure { throw SyncJobError.doNotRetry(DemoFailure(description: failure)) }
                throw DemoFailure(description: failure)
            }
            if let condition = plan.setsCondition {
                try environment.setCondition(condition, isMet: true)
                narrate("\(plan.id) sets the condition \(condition.name)")
            }
        }
    }

    /// A simulated failure.
    struct DemoFailure: Error, CustomStringConvertible {
        var description: String
    }

    private static func introduction(environment: SyncEnvironment, speed: Double, style: TerminalStyle) -> [String] {
        var lines = [
            style.paint("syncgate demo", .bold)
                + ": \(DemoJobPlan.all.count) jobs an app might run, on this machine's real network and power;",
            "the account, the cloud drive and the app's conditions are simulated (account signed out at first).",
            "this machine now: " + environmentLine(environment),
        ]
        let status = environment.status
        if !status.connectivity.isConnected {
            lines.append("no network here: jobs that need it wait, then expire at their start deadline.")
        }
        if !status.power.isOnExternalPower {
            lines.append("on battery: jobs that need external power wait, then expire at their start deadline.")
        }
        lines.append("")
        return lines
    }

    private static func environmentLine(_ environment: SyncEnvironment) -> String {
        let status = environment.status
        var network = "\(status.connectivity)"
        if status.connectivity.isConnected, let name = DefaultRouteTable.currentInterfaceName() {
            network += " (\(name))"
        }
        let conditions = status.conditions.map(\.name).sorted()
        return "\(network); \(status.power); account \(status.account); cloud drive "
            + (status.isCloudDriveAvailable ? "available" : "unavailable")
            + "; conditions: " + (conditions.isEmpty ? "none" : conditions.joined(separator: ", "))
    }

    /// Draws `lines` over the `previous` lines drawn last time; returns how many lines are on screen now.
    private static func redraw(_ lines: [String], over previous: Int) -> Int {
        var text = previous > 0 ? "\u{1B}[\(previous)A" : ""
        for line in lines { text += "\u{1B}[2K" + line + "\n" }
        if previous > lines.count {
            for _ in lines.count..<previous { text += "\u{1B}[2K\n" }
            text += "\u{1B}[\(previous - lines.count)A"
        }
        Output.write(text)
        return lines.count
    }
}
