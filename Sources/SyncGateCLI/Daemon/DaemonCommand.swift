import Foundation
import SyncGate

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `syncgate daemon`: a durable scheduler over this machine's environment, served on a Unix socket.
///
/// On start it opens its socket (a daemon that cannot listen starts nothing), stops the commands its
/// last process left running (their process groups: SIGTERM, then SIGKILL after the kill grace; see
/// ``RunningCommands``), records as interrupted the runs that process left unfinished, restores the
/// pending jobs (a job that was running runs again: at-least-once) and listens; restored jobs start only
/// after its log says so. On SIGTERM or SIGINT it stops
/// listening, lets running commands go on for the grace period, then sends them SIGTERM and, after
/// ``killGrace``, SIGKILL; their runs are recorded as interrupted and the jobs stay
/// in the store, to run again when the daemon next starts. Its log goes to stderr, one line per event,
/// with a syslog priority prefix when stderr is the journal.
package struct DaemonCommand: Subcommand {
    /// `daemon`.
    package static let name = "daemon"
    /// The row under USAGE.
    package static let synopsis = "syncgate daemon [options]"
    /// The summary under USAGE.
    package static let summary = "the job service (see 'syncgate daemon --help')"
    /// `--state-dir`, `--socket`, `--grace`, `--kill-grace` and `--pressure-threshold`.
    package static let options = [
        CommandLineOption(
            "--state-dir", .text("DIR"),
            help: [
                "the jobs and run logs (default $XDG_STATE_HOME/syncgate, else",
                "~/.local/state/syncgate; root: /var/lib/syncgate)",
            ]),
        CommandLineOption(
            "--socket", .text("PATH"),
            help: [
                "the socket (default $SYNCGATE_SOCKET, else",
                "$XDG_RUNTIME_DIR/syncgate/socket, else /tmp/syncgate-UID/socket;",
                "root: /run/syncgate/socket). Its directory must be this user's,",
                "not a symbolic link and not writable by others, or it is refused",
            ]),
        CommandLineOption(
            "--grace", .duration,
            help: [
                "on SIGTERM, how long running commands may go on (default 10s);",
                "0s stops them at once",
            ]),
        CommandLineOption(
            "--kill-grace", .duration,
            help: [
                "then the time between their SIGTERM and SIGKILL (default 5s); 0s",
                "kills at once",
            ]),
        ParsedArguments.pressureThresholdOption,
    ]
    /// None.
    package static let operands = CommandLineOperands.none

    /// The help of `syncgate daemon`.
    package static func help(_ sections: HelpText.Sections) -> String {
        """
        USAGE: syncgate daemon [--state-dir DIR] [--socket PATH] [--grace DUR] [--kill-grace DUR]
                               [--pressure-threshold LIST]

        Runs the job service: a durable scheduler over this machine's network and power, served on
        a Unix socket (mode 0600, in a 0700 directory) that only this user and root may use.
        Pending jobs survive restarts; a command that was running when the daemon stopped runs
        again when it starts (at least once). Logs to stderr. The thresholds of
        --pressure-threshold are the daemon's, for every job: a job cannot set its own.

        OPTIONS
        \(sections.options)
        \(sections.durations)
        """
    }

    /// The default time running commands get to finish when the daemon stops.
    package static let defaultGracePeriod: Duration = .seconds(10)
    /// The default time between SIGTERM and SIGKILL.
    package static let defaultKillGrace: Duration = .seconds(5)
    /// How many finished jobs the daemon keeps for `jobs --all`: the newest, of those finished since it
    /// started (older ones are in the run log, which `logs ID` reads).
    package static let finishedJobsKept = 100

    /// The state directory; `nil` for ``DaemonPaths/stateDirectory(environment:)``.
    package var stateDirectory: String?
    /// The socket; `nil` for ``DaemonPaths/socketPath(environment:)``.
    package var socketPath: String?
    /// How long running commands may go on when the daemon stops, before SIGTERM.
    package var gracePeriod: Duration
    /// The time between SIGTERM and SIGKILL for a command the daemon stops.
    package var killGrace: Duration
    /// The thresholds of the daemon's environment (`--pressure-threshold`), which decide
    /// `not-under-pressure` for every job.
    package var pressureThresholds: PressureThresholds = .default

    /// Creates the invocation.
    package init(
        stateDirectory: String? = nil, socketPath: String? = nil,
        gracePeriod: Duration = DaemonCommand.defaultGracePeriod,
        killGrace: Duration = DaemonCommand.defaultKillGrace
    ) {
        self.stateDirectory = stateDirectory
        self.socketPath = socketPath
        self.gracePeriod = gracePeriod
        self.killGrace = killGrace
    }

    /// Reads `--state-dir` and `--socket` (absolute paths), `--grace`, `--kill-grace` and
    /// `--pressure-threshold`.
    package init(parsing arguments: ParsedArguments) throws(UsageError) {
        self.init()
        stateDirectory = try arguments.path("--state-dir")
        socketPath = try arguments.path("--socket")
        gracePeriod = try arguments.duration("--grace") ?? gracePeriod
        killGrace = try arguments.duration("--kill-grace") ?? killGrace
        pressureThresholds = try arguments.pressureThresholds()
    }

    /// Runs the daemon until SIGTERM or SIGINT; see ``execute(_:signals:)``.
    package func run() async -> Int32 {
        guard let signals = SignalWatcher.reporting(SignalWatcher.make()) else { return ExitCode.failure }
        return await Self.execute(self, signals: signals.signals)
    }

    /// Runs the daemon until SIGTERM or SIGINT; returns the exit status.
    package static func execute(_ options: DaemonCommand, signals: AsyncStream<Int32>) async -> Int32 {
        let journal = ProcessInfo.processInfo.environment["JOURNAL_STREAM"] != nil
        // Job names and commands reach the log: escaped, so none can forge a line or drive a terminal.
        let log: @Sendable (String) -> Void = { message in
            Output.errorLine((journal ? "<6>" : "syncgate daemon: ") + DaemonLimits.escaped(message))
        }
        let logError: @Sendable (String) -> Void = { message in
            Output.errorLine((journal ? "<3>" : "syncgate daemon: ") + DaemonLimits.escaped(message))
        }
        let fail: @Sendable (String) -> Int32 = { message in
            logError(message)
            return ExitCode.failure
        }
        // SyncGate's own errors reach the daemon's log (with --verbose, everything already goes to stderr).
        if SyncGateLog.logger == nil { SyncGateLog.install(DaemonLibraryLogger(write: logError)) }
        let stateDirectory = options.stateDirectory ?? DaemonPaths.stateDirectory()
        let socketPath = options.socketPath ?? DaemonPaths.socketPath()
        let machine = MachineEnvironment(pressureThresholds: options.pressureThresholds)
        let cannotOpen = { (error: any Error) in
            fail(
                "cannot open the state directory \(stateDirectory): "
                    + FileErrorText.describe(error, path: stateDirectory))
        }
        do {
            try prepareStateDirectory(stateDirectory)
        } catch {
            return cannotOpen(error)
        }
        // The daemon's own writes (run logs, the job store) are no changes: no file watch covers the state
        // directory, also when a watched tree holds it (`--on-change ~`), else every run would start the next.
        let ignored = DaemonPaths.ignoredByWatches(
            stateDirectory: stateDirectory, workingDirectory: FileManager.default.currentDirectoryPath)
        // Calendar jobs target the wall clock and plan again whenever it is set (NTP, a user, a resume):
        // the default wall clock hears it from the system.
        let scheduler: SyncScheduler
        do {
            scheduler = try SyncScheduler(
                environment: machine.environment,
                configuration: .init(history: SyncJobHistoryRetention(maxCount: Self.finishedJobsKept)),
                fileWatcher: SystemFileWatcher(ignoring: ignored))
        } catch {
            return fail("\(error)")
        }
        let durable: DurableScheduler
        let store: FileJobStore
        let runLog: RunLog
        let running: RunningCommands
        do {
            store = try FileJobStore(directory: stateDirectory + "/jobs")
            durable = DurableScheduler(scheduler: scheduler, store: store)
            runLog = try RunLog(directory: stateDirectory + "/runs")
            running = try RunningCommands(directory: stateDirectory + "/running")
            for directory in ["/jobs", "/runs", "/running"] {
                SystemBytes.withCString(stateDirectory + directory) { _ = chmod($0, 0o700) }
            }
        } catch {
            return cannotOpen(error)
        }
        // The socket first: a daemon that cannot listen restores and starts nothing.
        let service = DaemonService(
            durable: durable, environment: machine.environment, runLog: runLog,
            stateDirectory: DaemonPaths.resolved(ignored[0]), log: log)
        let server: DaemonServer
        do {
            try DaemonSocketLocation.prepare(socketPath: socketPath)
            server = try DaemonServer(path: socketPath, service: service)
        } catch {
            try? store.close()
            return fail("\(error)")
        }
        // A command of a daemon that died without stopping it must end before its job can run again.
        running.stopSurvivors(gracePeriod: options.killGrace, log: log)
        let interrupted = runLog.closeInterruptedRuns()
        if interrupted > 0 {
            log("\(interrupted) run(s) were cut short by the last daemon's end; recorded as interrupted")
        }
        #if os(Linux)
            // This executable, as the command's launcher (PR_SET_PDEATHSIG; see JobLauncher).
            let launcher: String? = "/proc/self/exe"
        #else
            let launcher: String? = nil
        #endif
        let runner = ShellJobRunner(
            runLog: runLog, killGrace: options.killGrace, log: log, launcher: launcher, running: running)
        // Restored jobs start once the log says "restored" and "listening".
        let gate = StartGate()
        // The durable layer's failed writes are logged as they fail (it retries them).
        let failures = durable.writeFailures
        let listener = Task {
            for await failure in failures { log("store: \(failure)") }
        }
        defer { listener.cancel() }
        do {
            try runner.register(on: durable, after: gate)
            let report = try durable.restoreJobs()
            service.handles.add(report.restored)
            log("restored \(report.restored.count) job(s) from \(stateDirectory)")
            // A unit that refuses netlink sockets slows what the jobs wait for; `syncgate status` run from a
            // shell would not show it, so the log does.
            for refusal in machine.kernelRefusals { log(refusal) }
            let pending = Set(report.restored.map(\.id) + report.kept.map(\.id))
            let pruned = runLog.prune(keeping: pending)
            if pruned > 0 { log("removed the run logs of \(pruned) job(s) that ended over 30 days ago") }
            for issue in report.storeIssues { log("store: \(issue)") }
            // A job the store keeps but cannot run now (its file trigger's path is gone, say) is said, or
            // it would be invisible until a later start restores it; `jobs` lists it, `cancel ID` discards it.
            for kept in report.kept {
                log("kept in the store, not restored: job \(kept) ('syncgate cancel \(kept.id)' discards it)")
            }
        } catch {
            server.stop()
            gate.open()
            await scheduler.shutdown(gracePeriod: .zero)
            try? store.close()
            return fail("cannot restore the jobs: \(error)")
        }
        if options.pressureThresholds != .default { log("pressure thresholds: high at \(options.pressureThresholds)") }
        server.start()
        log("listening on \(socketPath), state in \(stateDirectory)")
        gate.open()
        let compactor = JournalCompactor(
            clock: ContinuousClock(), interval: JournalCompactor<ContinuousClock>.daemonInterval,
            compact: { try store.compactIfNeeded() }, log: log)
        let compaction = Task { await compactor.run() }
        var received: Int32 = SIGTERM
        for await signal in signals {
            received = signal
            break
        }
        log("signal \(received): stopping; running commands get \(DurationParser.format(options.gracePeriod))")
        compaction.cancel()
        server.stop()
        service.beginStopping()
        let left = await durable.shutdown(gracePeriod: options.gracePeriod)
        if left.unwrittenRecords > 0 || left.storeError != nil {
            log(
                "\(left.unwrittenRecords) record(s) not written before stopping (their jobs come back as last "
                    + "written)\(left.storeError.map { ": \($0)" } ?? "")")
        }
        log("stopped; \(left.resumeNextLaunch.count) job(s) left for the next start")
        return ExitCode.success
    }

    /// Creates the state directory with mode 0700, or closes an existing one of ours to others.
    ///
    /// - Throws: when it cannot be created, or belongs to another user.
    static func prepareStateDirectory(_ directory: String) throws {
        try DaemonServer.prepareDirectory(directory, ownEntries: ["jobs", "runs", "running"])
    }
}
