/// Queries and the history of finished jobs, kept within the retention (docs/ARCHITECTURE.md §4).
///
/// The history is a ring, oldest first; a resolved job is appended and the oldest are dropped past
/// `maxCount` or `maxAge`, each retired as it is dropped, so keeping it costs O(1) per finished job and a
/// full history retires one job per job that ends (never a batch at once, which the thread ending a job
/// would free in one go). A query reads every unfinished job and every kept one: O(jobs + kept).
extension SchedulerStateMachine {
    /// Keeps a job that just ended, or, with no history kept, retires it (see ``retired``); a kept job is
    /// retired when it is dropped from the history.
    mutating func record(_ job: Job, outcome: SyncJobOutcome, now: Duration) {
        // A finished job's inputs are read no more: keep no dependency alive through it (released by the
        // shell, after its lock).
        if !job.inputs.isEmpty {
            retired.payloads.append(contentsOf: job.inputs.lazy.map { $0.payload })
            job.inputs = []
        }
        guard retention.maxCount > 0 else {
            retired.jobs.append(job)
            return
        }
        history.append(FinishedJob(job: job, outcome: outcome, finishedAt: now))
        prune(now: now)
    }

    /// Drops the finished jobs past the retention.
    mutating func prune(now: Duration) {
        while history.count > retention.maxCount { retired.jobs.append(history.removeFirst().job) }
        if let maxAge = retention.maxAge {
            while let oldest = history.first, oldest.finishedAt + maxAge <= now {
                retired.jobs.append(history.removeFirst().job)
            }
        }
    }

    /// When each armed delay timer fires, by timer id: read once per query, so a query over many delayed
    /// jobs stays O(jobs + timers).
    private func delayTimerEnds() -> [UInt64: Duration] {
        var ends: [UInt64: Duration] = [:]
        for timer in timers.unordered where timer.kind == .delay { ends[timer.id] = timer.at }
        return ends
    }

    /// The most recent kept job with the identifier, if it is still within the retention.
    func finishedJob(id: SyncJob.ID, now: Duration) -> FinishedJob? {
        guard let index = history.lastIndex(where: { $0.id == id }) else { return nil }
        let finished = history[index]
        if let maxAge = retention.maxAge, finished.finishedAt + maxAge <= now { return nil }
        return finished
    }

    /// The unfinished jobs in submission order, then the kept ones oldest first, that match `query`.
    func jobs(
        matching query: SyncJobQuery, now: Duration, progress: (Payload) -> SyncJobProgress? = { _ in nil }
    ) -> [SyncJobInfo] {
        var found: [SyncJobInfo] = []
        var delayEnds: [UInt64: Duration]?
        for job in jobs.values.sorted(by: { $0.key < $1.key }) {
            if let ids = query.ids, !ids.contains(job.spec.id) { continue }
            var info = info(of: job, state: state(of: job), progress: progress(job.payload))
            info.relaxations = relaxationStatuses(of: job, now: now)
            if job.phase == .delayed, job.delayTimer != 0 {
                if delayEnds == nil { delayEnds = delayTimerEnds() }
                if let end = delayEnds?[job.delayTimer] {
                    info.delayedUntil = end
                    info.delayRemaining = max(.zero, end - now)
                }
            }
            if query.matches(info) { found.append(info) }
        }
        let oldestKept = retention.maxAge.map { now - $0 }
        for finished in history {
            if let oldestKept, finished.finishedAt <= oldestKept { continue }
            if let ids = query.ids, !ids.contains(finished.id) { continue }
            var info = info(
                of: finished.job, state: JobLifecycle.state(of: finished.outcome), progress: progress(finished.payload))
            info.outcome = finished.outcome
            info.finishedAt = finished.finishedAt
            if query.matches(info) { found.append(info) }
        }
        return found
    }

    /// The state a handle shows for an unfinished job (a waiting job with its blockers now).
    func state(of job: Job) -> SyncJobState {
        switch job.phase {
        case .parked: JobLifecycle.blocked(by: blockers(of: job))
        case .waiting:
            .waiting(
                unmet: status.unmetRequirements(job.requirements),
                conditions: status.unmetConditions(job.conditions))
        case .delayed: .delayed(attempt: job.nextAttempt)
        case .running: .running(attempt: job.attempt)
        }
    }

    private func info(of job: Job, state: SyncJobState, progress: SyncJobProgress?) -> SyncJobInfo {
        SyncJobInfo(
            id: job.spec.id,
            state: state,
            outcome: nil,
            tags: job.spec.tags,
            uniqueKey: job.spec.uniqueKey,
            dependsOn: job.dependencyIDs,
            attempts: max(job.attempt, job.failures),
            runs: job.attemptsStarted,
            submittedAt: job.submittedAt,
            firstStartedAt: job.firstStartedAt,
            lastStartedAt: job.lastStartedAt,
            finishedAt: nil,
            periods: job.series?.counts,
            progress: progress,
            stopReason: job.lastStopReason,
            nextScheduledAt: nextScheduledDate(of: job),
            allowedNetworks: job.spec.allowedNetworks,
            isNetworkNotAllowed: !status.allows(job.spec.allowedNetworks),
            fileWait: fileWait(of: job),
            fileTrigger: job.spec.fileTrigger
        )
    }
}
