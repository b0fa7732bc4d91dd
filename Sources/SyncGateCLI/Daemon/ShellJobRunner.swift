import Foundation
import SyncGate

/// Runs one attempt of a ``ShellJob`` for the daemon: a clean environment, stdin `/dev/null`, stdout
/// and stderr into the run log, SIGTERM then SIGKILL when the job is cancelled.
struct ShellJobRunner: Sendable {
    /// A run that ended with a non-zero status.
    struct CommandFailed: Error, CustomStringConvertible {
        var status: Int32
        var description: String { "the command exited with status \(status)" }
    }

    let runLog: RunLog
    /// The time between SIGTERM and SIGKILL when a run is stopped.
    let killGrace: Duration
    let log: @Sendable (String) -> Void

    /// The environment every command gets: nothing of the daemon's but these.
    static func cleanEnvironment(jobID: String, attempt: Int) -> [String: String] {
        let own = ProcessInfo.processInfo.environment
        var environment = [
            "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
            "LANG": "C.UTF-8",
            "SYNCGATE_JOB_ID": jobID,
            "SYNCGATE_ATTEMPT": String(attempt),
        ]
        for name in ["HOME", "USER", "LOGNAME", "XDG_RUNTIME_DIR"] { environment[name] = own[name] }
        return environment
    }

    /// Runs the command once; throws ``CommandFailed`` for a non-zero status.
    func run(_ job: ShellJob, context: SyncJobContext) async throws {
        let id = context.jobID
        let run = runLog.startRun(id: id, attempt: context.attempt)
        let paths = runLog.outputPaths(id: id, run: run)
        let stdout: CappedOutput
        let stderr: CappedOutput
        do {
            stdout = try CappedOutput(path: paths.stdout, limit: RunLog.outputLimit)
            stderr = try CappedOutput(path: paths.stderr, limit: RunLog.outputLimit)
        } catch {
            runLog.endRun(id: id, run: run, exitStatus: nil, interrupted: false)
            throw error
        }
        let redirection = ChildProcess.Redirection(
            environment: Self.cleanEnvironment(jobID: id, attempt: context.attempt),
            workingDirectory: job.workingDirectory, standardOutput: stdout.writeEnd, standardError: stderr.writeEnd)
        let child: ChildProcess
        do {
            child = try ChildProcess(arguments: job.command, redirection: redirection)
        } catch {
            stdout.closeWriteEnd()
            stderr.closeWriteEnd()
            runLog.endRun(id: id, run: run, exitStatus: error.exitCode, interrupted: false)
            log("job \(id) (\(job.name)) run \(run): \(error.description)")
            throw SyncJobError.doNotRetry(error)
        }
        stdout.closeWriteEnd()
        stderr.closeWriteEnd()
        log("job \(id) (\(job.name)) run \(run) started, attempt \(context.attempt), pid \(child.pid)")
        let killGrace = killGrace
        let exit = await withTaskCancellationHandler {
            await child.exitStatus()
        } onCancel: {
            child.terminate(gracePeriod: killGrace)
        }
        // A process the command left in the background may hold the pipes: its output is not waited for
        // beyond this.
        let deadline = DispatchTime.now() + .seconds(2)
        stdout.finish(before: deadline)
        stderr.finish(before: deadline)
        let stopped = Task.isCancelled
        runLog.endRun(id: id, run: run, exitStatus: exit.exitCode, interrupted: stopped)
        log("job \(id) (\(job.name)) run \(run) \(exit)\(stopped ? " (stopped by the daemon)" : "")")
        if stopped { throw CancellationError() }
        if !exit.isSuccess { throw CommandFailed(status: exit.exitCode) }
    }
}
