import Foundation
import SyncGate

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `syncgate daemon`: a durable scheduler over this machine's environment, served on a Unix socket.
///
/// On start it records as interrupted the runs its last process left unfinished, restores the pending
/// jobs (a job that was running runs again: at-least-once) and listens. On SIGTERM or SIGINT it stops
/// listening, lets running commands go on for the grace period, then sends them SIGTERM and, after
/// ``Command/DaemonOptions/killGrace``, SIGKILL; their runs are recorded as interrupted and the jobs stay
/// in the store, to run again when the daemon next starts. Its log goes to stderr, one line per event,
/// with a syslog priority prefix when stderr is the journal.
public enum DaemonCommand {
    /// Runs the daemon until SIGTERM or SIGINT; returns the exit status.
    public static func execute(_ options: Command.DaemonOptions, signals: AsyncStream<Int32>) async -> Int32 {
        let journal = ProcessInfo.processInfo.environment["JOURNAL_STREAM"] != nil
        let log: @Sendable (String) -> Void = { message in
            Output.errorLine(journal ? "<6>" + message : "syncgate daemon: " + message)
        }
        let fail: @Sendable (String) -> Int32 = { message in
            Output.errorLine(journal ? "<3>" + message : "syncgate daemon: " + message)
            return ExitCode.failure
        }
        let stateDirectory = options.stateDirectory ?? DaemonPaths.stateDirectory()
        let socketPath = options.socketPath ?? DaemonPaths.socketPath()
        let machine = MachineEnvironment()
        let scheduler = SyncScheduler(environment: machine.environment)
        let durable: DurableScheduler
        let store: FileJobStore
        let runLog: RunLog
        do {
            try FileManager.default.createDirectory(
                atPath: stateDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            store = try FileJobStore(directory: stateDirectory + "/jobs")
            durable = DurableScheduler(scheduler: scheduler, store: store)
            runLog = try RunLog(directory: stateDirectory + "/runs")
        } catch {
            return fail("cannot open the state directory \(stateDirectory): \(error)")
        }
        let interrupted = runLog.closeInterruptedRuns()
        if interrupted > 0 {
            log("\(interrupted) run(s) were cut short by the last daemon's end; recorded as interrupted")
        }
        let runner = ShellJobRunner(runLog: runLog, killGrace: options.killGrace, log: log)
        var restored: [SyncJobHandle] = []
        do {
            try durable.register(ShellJob.kind, payload: ShellJob.self) { job, context in
                try await runner.run(job, context: context)
            }
            let report = try durable.restoreJobs()
            restored = report.restored
            log("restored \(report.restored.count) job(s) from \(stateDirectory)")
            let pending = Set(report.restored.map(\.id) + report.kept.map(\.id))
            let pruned = runLog.prune(keeping: pending)
            if pruned > 0 { log("removed the run logs of \(pruned) job(s) that ended over 30 days ago") }
            for issue in report.storeIssues { log("store: \(issue)") }
        } catch {
            return fail("cannot restore the jobs: \(error)")
        }
        let service = DaemonService(durable: durable, environment: machine.environment, runLog: runLog, log: log)
        service.handles.add(restored)
        let failures = durable.writeFailures
        let listener = Task {
            for await failure in failures { log("store: \(failure)") }
        }
        defer { listener.cancel() }
        let server: DaemonServer
        do {
            server = try DaemonServer(path: socketPath, service: service)
        } catch {
            await scheduler.shutdown(gracePeriod: .zero)
            return fail("\(error)")
        }
        server.start()
        log("listening on \(socketPath), state in \(stateDirectory)")
        var received: Int32 = SIGTERM
        for await signal in signals {
            received = signal
            break
        }
        log("signal \(received): stopping; running commands get \(DurationParser.format(options.gracePeriod))")
        server.stop()
        service.beginStopping()
        await scheduler.shutdown(gracePeriod: options.gracePeriod)
        do {
            try durable.retryPendingWrites()
        } catch {
            log("records not written before stopping (their jobs come back as last written): \(error)")
        }
        try? store.close()
        log("stopped")
        return ExitCode.success
    }
}
