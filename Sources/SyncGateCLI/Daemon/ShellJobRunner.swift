import Foundation
import SyncGate
import SyncGateCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs one attempt of a ``ShellJob`` for the daemon: a clean environment, stdin `/dev/null`, stdout
/// and stderr into the run log, in a process group of its own.
///
/// The run ends with its whole process group: when the command exits, what it left running in its group
/// gets SIGTERM and, after ``killGrace``, SIGKILL; when the job is stopped (`cancel`, `--timeout`,
/// lost requirements, a replacing job, shutdown) the reason (``SyncJobStopReason/description``) is
/// written to the file named by the command's `SYNCGATE_STOP_REASON_FILE` before the group gets SIGTERM,
/// and SIGKILL follows after ``killGrace`` (`syncgate daemon --kill-grace`). An environment variable
/// cannot carry the reason, as the command read its environment when it started: a command that wants
/// to know why it is stopped reads that file in its SIGTERM handler. The reason is also written to the
/// run's stderr log and to `runs.jsonl` when the run ends. Only then is the run recorded as ended. Its output is copied until every process holding the pipes has closed them, but
/// at most ``outputDrain`` after the group has ended; a process that left the group and still holds a
/// pipe loses what it writes later, and the daemon's descriptors for the run are closed regardless.
///
/// What the run log cannot write (a full disk) does not change the run: a start or end line that
/// cannot be written is logged (`job ID (NAME) run N: the run log cannot record its start: …`) and kept
/// in memory by ``RunLog``; output that cannot be written is dropped from there on and logged
/// (`job ID (NAME) run N: its stdout was cut: cannot write: …`). The attempt's result is thrown all the
/// same: ``CommandFailed`` carries the command's status whether or not the run log holds it.
///
/// With a ``launcher``, the command is started through ``JobLauncher`` so that it gets SIGKILL when the
/// daemon dies, and while it runs its identity is in ``running``, for the next daemon to find. The
/// launcher waits at its gate until the run is recorded there; a run that cannot be recorded (the record
/// cannot be written, or the launcher's start time cannot be read) never runs: the gate closes, the
/// launcher ends with 125 and is reaped, the run is logged as one that could not start, and the attempt
/// throws ``StartFailed``. Without a launcher (platforms without `/proc`) the command runs as soon as it
/// is spawned and is not recorded.
struct ShellJobRunner: Sendable {
    /// A run that ended with a non-zero status.
    struct CommandFailed: Error, CustomStringConvertible {
        var status: Int32
        var description: String { "the command exited with status \(status)" }
    }

    /// A run that could not start, with the reason.
    struct StartFailed: Error, CustomStringConvertible {
        var reason: String
        var description: String { "the command could not start: \(reason)" }
    }

    /// A job whose payload cannot run (``ShellJob/validate()``), with the reason naming the field and the
    /// value.
    struct InvalidJob: Error, CustomStringConvertible {
        var reason: String
        var description: String { "the stored job cannot run: \(reason)" }
    }

    /// How long a run's output is still copied after its process group has ended.
    static let outputDrain = Duration.seconds(2)

    let runLog: RunLog
    /// The time between SIGTERM and SIGKILL when a run is stopped, and for what a command leaves behind.
    let killGrace: Duration
    let log: @Sendable (String) -> Void
    /// The executable that starts commands (``JobLauncher``); `nil` to spawn them directly.
    var launcher: String? = nil
    /// Where running commands are recorded; `nil` to record nothing.
    var running: RunningCommands? = nil

    /// The environment every command gets: nothing of the daemon's but these, in ``SystemBytes``' text
    /// form (the daemon's values byte for byte).
    ///
    /// `stopReasonFile` is the path of ``RunLog/stopReasonPath(id:run:)``, given as
    /// `SYNCGATE_STOP_REASON_FILE`; the file exists only once the run is being stopped.
    static func cleanEnvironment(jobID: String, attempt: Int, stopReasonFile: String? = nil) -> [String: String] {
        var environment = [
            "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
            "LANG": "C.UTF-8",
            "SYNCGATE_JOB_ID": jobID,
            "SYNCGATE_ATTEMPT": String(attempt),
        ]
        environment["SYNCGATE_STOP_REASON_FILE"] = stopReasonFile
        for name in ["HOME", "USER", "LOGNAME", "XDG_RUNTIME_DIR"] { environment[name] = SystemBytes.environment(name) }
        return environment
    }

    /// Registers the daemon's handler of ``ShellJob/kind`` on `durable`: each attempt waits until `gate`
    /// opens, then runs the job (``run(_:context:)``).
    func register(on durable: DurableScheduler, after gate: StartGate) throws(DurableJobError) {
        try durable.register(ShellJob.kind, payload: ShellJob.self) { job, context in
            await gate.wait()
            try await run(job, context: context)
        }
    }

    /// Runs the command once; throws ``CommandFailed`` for a non-zero status, ``StartFailed`` (to be
    /// retried) when the daemon lacked a resource to start it or, with a ``launcher``, to record it in
    /// ``running``, and ``InvalidJob`` (not retried, nothing started) when the payload cannot run
    /// (``ShellJob/validate()``).
    func run(_ job: ShellJob, context: SyncJobContext) async throws {
        let id = context.jobID
        do {
            try job.validate()
        } catch {
            let invalid = InvalidJob(reason: error.message)
            log("job \(id) (\(job.name)): \(invalid.description)")
            throw SyncJobError.doNotRetry(invalid)
        }
        var unrecordedStart: String? = nil
        let run = runLog.startRun(id: id, attempt: context.attempt) { unrecordedStart = $0 }
        if let unrecordedStart {
            log("job \(id) (\(job.name)) run \(run): the run log cannot record its start: \(unrecordedStart)")
        }
        /// Logs why the run log cannot record the run's end.
        let unrecordedEnd = { (failure: String) in
            log("job \(id) (\(job.name)) run \(run): the run log cannot record its end: \(failure)")
        }
        let paths = runLog.outputPaths(id: id, run: run)
        let cannotStart = { (reason: String) -> StartFailed in
            runLog.endRun(id: id, run: run, exitStatus: nil, interrupted: false, unrecorded: unrecordedEnd)
            Self.note("syncgate: the command could not start: \(reason)\n", to: paths.stderr)
            log("job \(id) (\(job.name)) run \(run): the command could not start: \(reason)")
            return StartFailed(reason: reason)
        }
        let stdout: CappedOutput
        let stderr: CappedOutput
        do {
            stdout = try CappedOutput(path: paths.stdout, limit: RunLog.outputLimit)
        } catch {
            throw cannotStart("\(error)")
        }
        /// Closes the write ends of `outputs` and copies what they hold, for a run that did not start.
        func abandon(_ outputs: [CappedOutput]) async {
            for output in outputs { output.closeWriteEnd() }
            let drained = DispatchTime.now() + .seconds(1)
            for output in outputs { await output.finish(before: drained) }
        }
        do {
            stderr = try CappedOutput(path: paths.stderr, limit: RunLog.outputLimit)
        } catch {
            await abandon([stdout])
            throw cannotStart("\(error)")
        }
        let stopReasonFile = runLog.stopReasonPath(id: id, run: run)
        let environment = Self.cleanEnvironment(
            jobID: id, attempt: context.attempt, stopReasonFile: stopReasonFile)
        // Holds the launcher back until the run is recorded (see `JobLauncher.launchGate`).
        var gate: LaunchGate? = nil
        if launcher != nil {
            gate = LaunchGate()
            if gate == nil {
                let failure = SystemErrorText.described(errno)
                await abandon([stdout, stderr])
                throw cannotStart("no pipe for the launcher: \(failure)")
            }
        }
        defer { gate?.close() }
        let redirection = ChildProcess.Redirection(
            environment: environment, workingDirectory: job.workingDirectory, standardOutput: stdout.writeEnd,
            standardError: stderr.writeEnd, groupGrace: killGrace, launchGate: gate?.readEnd)
        let child: ChildProcess
        do {
            var arguments = job.command
            if let launcher {
                guard let path = ChildProcess.resolve(job.command[0], searchPath: environment["PATH"] ?? "") else {
                    throw ChildProcess.SpawnError(command: job.command[0], code: ENOENT)
                }
                arguments = JobLauncher.arguments(
                    executable: launcher, daemon: getpid(), path: path, command: job.command)
            }
            child = try ChildProcess(arguments: arguments, redirection: redirection)
        } catch var error as ChildProcess.SpawnError {
            // Through the launcher, what failed to start was the launcher: name the job's command.
            error.command = job.command[0]
            await abandon([stdout, stderr])
            let reason = "\(job.command[0]): \(SystemErrorText.message(error.code))"
            if [EAGAIN, EMFILE, ENFILE, ENOMEM].contains(error.code) { throw cannotStart(reason) }
            runLog.endRun(id: id, run: run, exitStatus: error.exitCode, interrupted: false, unrecorded: unrecordedEnd)
            Self.note("syncgate: \(error.description)\n", to: paths.stderr)
            log("job \(id) (\(job.name)) run \(run): \(error.description)")
            throw SyncJobError.doNotRetry(error)
        }
        stdout.closeWriteEnd()
        stderr.closeWriteEnd()
        // Only a run held at the launcher's gate is recorded: without a launcher (no `/proc` to tell the
        // command's start time either) the command already runs, and no record could keep it from it.
        if let running, let gate, let failure = Self.record(job: id, run: run, pid: child.pid, in: running) {
            // Held at the gate, the command has not run: closed, the gate ends the launcher (125).
            gate.close()
            _ = await child.groupEnded()
            await abandon([stdout, stderr])
            throw cannotStart("the run could not be recorded: \(failure)")
        }
        gate?.open()
        log("job \(id) (\(job.name)) run \(run) started, attempt \(context.attempt), pid \(child.pid)")
        let killGrace = killGrace
        let exit = await withTaskCancellationHandler {
            await child.exitStatus()
        } onCancel: {
            // The reason is set before the task is cancelled; written before SIGTERM, so the command's
            // handler finds it.
            Self.writeFile(Self.reasonText(context.stopReason) + "\n", to: stopReasonFile, truncating: true)
            child.terminate(gracePeriod: killGrace)
        }
        let outliving = await child.groupEnded()
        running?.remove(job: id)
        if !outliving.isEmpty {
            let pids = outliving.map(String.init).joined(separator: " ")
            log("job \(id) (\(job.name)) run \(run): processes \(pids) of its group outlived SIGKILL")
        }
        let (seconds, attoseconds) = Self.outputDrain.components
        let deadline =
            DispatchTime.now() + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
        await stdout.finish(before: deadline)
        await stderr.finish(before: deadline)
        for (name, output) in [("stdout", stdout), ("stderr", stderr)] {
            if let failure = output.writeFailure {
                log("job \(id) (\(job.name)) run \(run): its \(name) was cut: cannot write: \(failure)")
            }
        }
        let stopped = Task.isCancelled
        let reason = stopped ? Self.reasonText(context.stopReason) : nil
        if let reason {
            Self.note(
                "syncgate: stopped (\(reason)): SIGTERM, then SIGKILL after \(DurationParser.format(killGrace))\n",
                to: paths.stderr)
        }
        runLog.endRun(
            id: id, run: run, exitStatus: exit.exitCode, interrupted: stopped, stopReason: reason,
            unrecorded: unrecordedEnd)
        log("job \(id) (\(job.name)) run \(run) \(exit)\(reason.map { " (stopped by the daemon: \($0))" } ?? "")")
        if stopped { throw CancellationError() }
        if !exit.isSuccess { throw CommandFailed(status: exit.exitCode) }
    }

    /// Records the run of process `pid` in `running`; `nil` once it is recorded, else why it is not.
    private static func record(job: String, run: Int, pid: pid_t, in running: RunningCommands) -> String? {
        guard let start = ProcessGroup.Stat.read(pid)?.startTime else {
            return "the start time of process \(pid) cannot be read from /proc/\(pid)/stat"
        }
        do {
            try running.record(RunningCommands.Record(job: job, run: run, pid: pid, startTime: start))
            return nil
        } catch {
            return error.description
        }
    }

    /// The reason a stopped run is given: its description, or `cancelled` for a task cancelled without
    /// one (never by the scheduler, which always sets it first).
    private static func reasonText(_ reason: SyncJobStopReason?) -> String {
        reason?.description ?? SyncJobStopReason.cancelled.description
    }

    /// Appends `text` to the file at `path`, creating it; best effort (the daemon's log has it too).
    private static func note(_ text: String, to path: String) {
        writeFile(text, to: path, truncating: false)
    }

    /// Writes `text` to the file at `path`, creating it (mode 0600), appending or replacing; best effort.
    private static func writeFile(_ text: String, to path: String, truncating: Bool) {
        let descriptor = SystemBytes.withCString(path) {
            open($0, O_WRONLY | O_CREAT | (truncating ? O_TRUNC : O_APPEND) | O_CLOEXEC, 0o600)
        }
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        _ = RunLog.writeAll(descriptor, Array(text.utf8))
    }
}
