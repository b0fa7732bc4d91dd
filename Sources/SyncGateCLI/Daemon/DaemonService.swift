import Foundation
import SyncGate

/// What `syncgate daemon` does with each request: the durable scheduler, the environment it follows
/// and the run log, behind the wire format's requests.
final class DaemonService: Sendable {
    let durable: DurableScheduler
    let environment: SyncEnvironment
    let runLog: RunLog
    /// The daemon's state directory, absolute and resolved: an `--on-change` path inside it is refused.
    let stateDirectory: String
    let log: @Sendable (String) -> Void
    /// The handles of the unfinished jobs, for `cancel` to wait on.
    let handles = JobHandles()
    private let stopping = LockedState(false)
    /// The ids of the kept jobs this daemon discarded, so that a later `cancel` of one says so.
    let discardedKeptIDs = LockedState<Set<String>>([])
    /// How long a `cancel` waits for the jobs it cancelled to end (a running command gets SIGTERM, then
    /// SIGKILL after the kill grace) before it answers; it stays under the client's answer deadline.
    static let cancelWait = Duration.seconds(8)

    /// Marks the daemon as stopping: jobs cancelled from now on were cancelled by the shutdown.
    func beginStopping() {
        stopping.withLock { $0 = true }
    }

    init(
        durable: DurableScheduler, environment: SyncEnvironment, runLog: RunLog, stateDirectory: String,
        log: @escaping @Sendable (String) -> Void
    ) {
        self.durable = durable
        self.environment = environment
        self.runLog = runLog
        self.stateDirectory = stateDirectory
        self.log = log
    }

    /// Carries out a request; `submit --wait` also needs ``outcome(of:)``.
    func handle(_ request: DaemonRequest) -> (DaemonResponse, SyncJobHandle?) {
        do throws(DaemonProtocolError) {
            switch request {
            case .submit(let submission):
                let handle = try submit(submission)
                return (DaemonResponse(ok: true, id: handle.id), submission.wait ? handle : nil)
            case .jobs(let all):
                return (DaemonResponse(ok: true, jobs: jobs(all: all) + keptJobs()), nil)
            case .cancel(let selector):
                if case .id(let id) = selector, let discarded = try discardKept(id: id) { return (discarded, nil) }
                if case .id(let id) = selector, let problem = unknownJob(id) { throw DaemonProtocolError(problem) }
                // The kept jobs of a tag or key leave the store first; a failed discard cancels nothing more.
                let discarded = try discardKept(matching: selector)
                var response = cancel(selector)
                if discarded > 0 {
                    response.cancelled = (response.cancelled ?? 0) + discarded
                    response.discarded = discarded
                }
                return (response, nil)
            case .logs(let id, let stream):
                if stream {
                    // The runs follow, streamed by the server (``RunLog/stream(id:write:)``).
                    guard runLog.runRecords(id: id) != nil else { throw DaemonProtocolError("no job with id '\(id)'") }
                    return (DaemonResponse(ok: true, id: id), nil)
                }
                guard let runs = runLog.runs(id: id) else { throw DaemonProtocolError("no job with id '\(id)'") }
                return (DaemonResponse(ok: true, id: id, runs: runs), nil)
            case .setCondition(let name, let on):
                let condition = SyncCondition(name)
                let conditions = environment.status.conditions
                if on, !conditions.contains(condition), conditions.count >= DaemonLimits.maximumConditionsOn {
                    throw DaemonProtocolError(
                        "cannot turn on condition '\(condition.name)': \(conditions.count) conditions are on, "
                            + "at most \(DaemonLimits.maximumConditionsOn); turn some off first")
                }
                do {
                    try environment.setCondition(condition, isMet: on)
                } catch {
                    throw DaemonProtocolError("\(error)")
                }
                log("condition \(name) \(on ? "on" : "off")")
                return (DaemonResponse(ok: true), nil)
            }
        } catch {
            return (.failure(error.message), nil)
        }
    }

    /// Why `id` cannot be cancelled, when it names no unfinished job: no such job, or it has ended.
    private func unknownJob(_ id: String) -> String? {
        if let info = durable.scheduler.jobs(matching: .all).first(where: { $0.id == id }) {
            return info.state.isTerminal ? "job '\(id)' has already ended; nothing to cancel" : nil
        }
        guard runLog.job(id: id) != nil else { return "no job with id '\(id)'" }
        if discardedKeptIDs.withLock({ $0.contains(id) }) {
            return "job '\(id)' was discarded from the store; nothing to cancel"
        }
        return "job '\(id)' is not queued (it ended before this daemon started); nothing to cancel"
    }

    /// The second line of `submit --wait`: the outcome and an exit status.
    ///
    /// A failed job's status is its command's, carried by the error (``exitStatus(of:)``), else the
    /// run log's last (a run stopped by `--timeout`), else ``ExitCode/failure`` (a dependency that did
    /// not succeed). A cancelled job's is the run log's last, which holds the runs it could not write
    /// (``RunLog``): the stopped run's, or `nil` when the job never ran.
    func outcome(of handle: SyncJobHandle) async -> DaemonResponse {
        let outcome = (try? await handle.outcome()) ?? .cancelled
        switch outcome {
        case .succeeded:
            return DaemonResponse(ok: true, id: handle.id, outcome: "succeeded", exitStatus: 0)
        case .failed(let error):
            let status = Self.exitStatus(of: error) ?? runLog.lastExitStatus(id: handle.id) ?? ExitCode.failure
            return DaemonResponse(ok: true, error: "\(error)", id: handle.id, outcome: "failed", exitStatus: status)
        case .cancelled where stopping.withLock({ $0 }):
            return DaemonResponse(
                ok: false,
                error: "the daemon stopped before job \(handle.id) ended; it runs again when the daemon starts",
                id: handle.id)
        case .cancelled:
            return DaemonResponse(
                ok: true, id: handle.id, outcome: "cancelled", exitStatus: runLog.lastExitStatus(id: handle.id))
        case .expired:
            return DaemonResponse(ok: true, id: handle.id, outcome: "expired", exitStatus: ExitCode.timedOut)
        }
    }

    /// The exit status a failed job's error carries: the command's status (``ShellJobRunner/CommandFailed``),
    /// or the status of a command that could not be spawned (127 when it does not exist), also inside
    /// `SyncJobError.doNotRetry`; `nil` for any other error, a dependency's failure included (its status
    /// is another job's).
    static func exitStatus(of error: any Error) -> Int32? {
        switch error {
        case let failed as ShellJobRunner.CommandFailed: failed.status
        case let spawn as ChildProcess.SpawnError: spawn.exitCode
        case SyncJobError.doNotRetry(let underlying): exitStatus(of: underlying)
        default: nil
        }
    }

    /// Turns a submission into a durable job and submits it. An `--on-change` path that is the state
    /// directory or lies inside it is refused, naming the path and the directory.
    func submit(_ submission: DaemonRequest.Submission) throws(DaemonProtocolError) -> SyncJobHandle {
        let options: SyncJobOptions
        do {
            options = try submission.jobOptions()
        } catch {
            throw DaemonProtocolError(error.message)
        }
        for path in options.fileTrigger?.paths ?? [] {
            if let problem = DaemonPaths.watchProblem(path, stateDirectory: stateDirectory) {
                throw DaemonProtocolError(
                    "invalid value '\(DaemonLimits.shown(path))' for --on-change: \(problem)")
            }
        }
        let id = SyncJob.makeID()
        let job = ShellJob(
            command: submission.command, workingDirectory: submission.workingDirectory,
            name: submission.name ?? submission.command[0])
        do {
            try runLog.recordJob(id: id, job)
        } catch {
            throw DaemonProtocolError(
                "cannot record the job: "
                    + FileErrorText.describe(error, action: "cannot write", path: runLog.directory + "/" + id))
        }
        do {
            let handle = try durable.submit(DurableJob(id: id, kind: ShellJob.kind, payload: job, options: options))
            handles.add([handle])
            if handle.id == id {
                log("job \(id) (\(job.name)) queued")
            } else {
                SystemFiles.removeTree(runLog.directory + "/" + id)
            }
            return handle
        } catch {
            SystemFiles.removeTree(runLog.directory + "/" + id)
            throw DaemonProtocolError("\(error)")
        }
    }

    /// Cancels the jobs the selector names, waits (at most ``cancelWait``) for them to end, and counts as
    /// cancelled only those whose end the journal holds: a job whose `resolved` record could not be
    /// written (a full disk) is reported in `notWritten`, since a restart before the durable layer writes
    /// it runs the job again.
    private func cancel(_ selector: DaemonRequest.CancelSelector) -> DaemonResponse {
        let scheduler = durable.scheduler
        let chosen = scheduler.jobs(matching: .all).filter {
            !$0.state.isTerminal && selector.matches(id: $0.id, tags: $0.tags, uniqueKey: $0.uniqueKey)
        }
        switch selector {
        case .id(let id): scheduler.cancel(jobID: id)
        case .tag(let tag): scheduler.cancel(tag: tag)
        case .uniqueKey(let key): scheduler.cancel(uniqueKey: key)
        }
        let ids = chosen.map(\.id)
        Self.waitForOutcomes(handles.handles(ids), within: Self.cancelWait)
        let pending = durable.jobsWithPendingWrites()
        let ended = Set(ids.filter { scheduler.job(id: $0)?.state.isTerminal != false })
        let written = ids.filter { ended.contains($0) && !pending.contains($0) }
        if !written.isEmpty { log("cancelled \(written.joined(separator: ", "))") }
        let unwritten = ids.filter { !ended.contains($0) || pending.contains($0) }
        guard !unwritten.isEmpty else { return DaemonResponse(ok: true, cancelled: written.count) }
        let reason =
            unwritten.contains(where: pending.contains)
            ? durable.snapshot().writeErrors.last ?? "a journal write failed"
            : "the jobs had not ended \(Self.cancelWait.components.seconds) s after the cancel"
        log(
            "the cancel of \(unwritten.count) job(s) is not on disk yet (\(unwritten.joined(separator: ", "))): "
                + "they run again if the daemon restarts before it is written; last error: \(reason)")
        return DaemonResponse(ok: true, cancelled: written.count, notWritten: unwritten.count, writeError: reason)
    }

    /// Blocks the calling thread (a connection's) until every handle has an outcome or `limit` passed.
    private static func waitForOutcomes(_ handles: [SyncJobHandle], within limit: Duration) {
        guard !handles.isEmpty else { return }
        let done = DispatchSemaphore(value: 0)
        let waiter = Task {
            await withTaskGroup(of: Void.self) { group in
                for handle in handles { group.addTask { _ = try? await handle.outcome() } }
            }
            done.signal()
        }
        let milliseconds = Int(limit.components.seconds * 1000)
        if done.wait(timeout: .now() + .milliseconds(milliseconds)) == .timedOut { waiter.cancel() }
    }

    /// The jobs of this daemon: unfinished ones, and with `all` those that finished since it started.
    func jobs(all: Bool) -> [DaemonResponse.Job] {
        durable.scheduler.jobs(matching: .all).filter { all || !$0.state.isTerminal }.map { info in
            let job = runLog.job(id: info.id)
            var waitingFor: [String] = []
            let state: String
            switch info.state {
            case .waiting(let unmet, let conditions):
                state = "waiting"
                waitingFor = unmet.names + conditions.map { "condition \($0.name)" }.sorted()
                if let allowed = info.allowedNetworks, !environment.status.allows(allowed) {
                    waitingFor.append("network \(allowed)")
                }
            case .blocked(let jobs):
                state = "waiting"
                waitingFor = jobs.map { "job \($0)" }
            case .delayed: state = "delayed"
            case .running: state = "running"
            case .succeeded: state = "succeeded"
            case .failed: state = "failed"
            case .cancelled: state = "cancelled"
            case .expired: state = "expired"
            }
            return DaemonResponse.Job(
                id: info.id, name: job?.name ?? "?", command: job?.command ?? [], state: state,
                waitingFor: waitingFor, attempts: info.attempts, runs: runLog.runCount(id: info.id),
                lastExitStatus: runLog.lastExitStatus(id: info.id),
                uniqueKey: info.uniqueKey, tags: info.tags.sorted(),
                lastStopReason: info.stopReason?.description ?? runLog.lastStopReason(id: info.id),
                nextScheduledAt: info.nextScheduledAt.map { $0.formatted(.iso8601) },
                delayedUntil: info.delayRemaining.map { Self.wallTime(after: $0).formatted(.iso8601) },
                relaxations: info.relaxations.isEmpty ? nil : info.relaxations.map(Self.relaxation),
                networks: info.allowedNetworks?.description,
                onChange: info.fileTrigger?.paths, quietSeconds: info.fileTrigger.map { Self.seconds($0.quietPeriod) },
                fileWait: info.fileWait.map(Self.fileWait))
        }
    }

    /// A file-triggered job's wait as `jobs` shows it: `change` or `quiet`.
    static func fileWait(_ wait: SyncFileTrigger.Wait) -> String {
        switch wait {
        case .change: "change"
        case .quiet: "quiet"
        }
    }

    /// A relaxation's status as `jobs` shows it.
    static func relaxation(_ status: SyncJobRelaxation.Status) -> DaemonResponse.Relaxation {
        let relaxed: String
        switch status.relaxation.relaxed {
        case .requirement(let requirement): relaxed = requirement.names.joined(separator: ",")
        case .condition(let condition): relaxed = "condition \(condition.name)"
        }
        return DaemonResponse.Relaxation(
            relaxed: relaxed, replacement: status.relaxation.replacement.names,
            afterSeconds: seconds(status.relaxation.after), applied: status.isApplied,
            remainingSeconds: seconds(status.remaining), summary: status.description)
    }

    /// The wall-clock time `remaining` after `now`, rounded up to the second (ISO 8601 shows whole
    /// seconds, and a delay does not end before the time shown); a time less than a millisecond past a
    /// whole second is that second, so a delay that ends on a calendar job's time shows that time, not
    /// the next second (the two clocks' readings drift apart by microseconds).
    static func wallTime(after remaining: Duration, now: Date = Date()) -> Date {
        let end = now.timeIntervalSince1970 + seconds(remaining)
        return Date(timeIntervalSince1970: (end - 0.001).rounded(.up))
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
