/// File-triggered jobs: a series whose runs are started by changes to files (``SyncFileTrigger``,
/// docs/ARCHITECTURE.md §4).
///
/// The machine never watches a file: a change arrives as an input (``filesChanged(key:now:)``) from the
/// shell's watcher, and the quiet period is the job's delay timer on the injected clock. A series is in
/// one of these places:
/// * waiting for a change: the `delayed` phase with no timer armed (`fileWait == .change`);
/// * waiting for quiet: the `delayed` phase with the delay timer at the end of the quiet period
///   (`fileWait == .quiet`); each change moves the timer to a full quiet period after it;
/// * waiting for its requirements (or a slot), running, retrying: as any job, with `fileWait == nil`;
///   changes then are covered by the run that follows, except during a run, where they are remembered
///   once (`changedDuringRun`), and the run's end starts one quiet period instead of waiting for a change.
extension SchedulerStateMachine {
    /// Starts the series of a file-triggered job that just became eligible: it waits for a change, or,
    /// restored with a change pending, begins with its quiet period.
    mutating func beginFileTrigger(_ key: Key, now: Duration, actions: inout [Action]) {
        guard let job = jobs[key] else { return }
        job.series = Series()
        if let resume = job.spec.seriesResume?.fileTrigger {
            job.series?.counts = resume.counts
            if resume.changed {
                beginQuiet(job, now: now, actions: &actions)
                return
            }
        }
        awaitChange(job, actions: &actions)
    }

    /// Takes a change to the files of the job with `key` (the watcher's report; a batch of changes is
    /// one report). A job waiting for a change or for quiet (re)starts its quiet period; a running job
    /// remembers that one more run follows; any other state ignores it, since the run it waits for
    /// starts after the change. An unknown key is ignored (the job ended).
    mutating func filesChanged(key: Key, now: Duration) -> [Action] {
        guard let job = jobs[key], job.spec.fileTrigger != nil, let series = job.series, !isShutDown else {
            return []
        }
        var actions = newActions()
        switch job.phase {
        case .running:
            job.series?.changedDuringRun = true
        case .delayed where series.fileWait != nil:
            beginQuiet(job, now: now, actions: &actions)
        case .delayed, .waiting, .parked:
            break
        }
        dispatch(now: now, actions: &actions)
        rearm(&actions)
        return actions
    }

    /// A file-triggered job's run ended (its success, or its failure after its retries): one more run
    /// follows when the files changed meanwhile, else the series waits for a change.
    mutating func awaitNextChange(_ key: Key, now: Duration, actions: inout [Action]) {
        guard let job = jobs[key], let series = job.series else { return }
        job.failures = 0
        job.series?.startedAt = nil
        job.series?.changedDuringRun = false
        if series.changedDuringRun {
            beginQuiet(job, now: now, actions: &actions)
        } else {
            awaitChange(job, actions: &actions)
        }
    }

    /// The quiet period ended (the delay timer fired): the run waits for its requirements; the wait of
    /// the job's relaxations begins now.
    mutating func endQuiet(_ job: Job, now: Duration, actions: inout [Action]) {
        job.series?.fileWait = nil
        beginRelaxationWait(job, at: now, now: now, actions: &actions)
    }

    /// Where a file-triggered job stands, for display; `nil` for other jobs and while it is not waiting
    /// for a change or for quiet.
    func fileWait(of job: Job) -> SyncFileTrigger.Wait? {
        guard job.phase == .delayed else { return nil }
        return job.series?.fileWait
    }

    private mutating func awaitChange(_ job: Job, actions: inout [Action]) {
        job.stage = .delayed(lossSeen: false)
        job.delayTimer = 0
        job.series?.fileWait = .change
        actions.append(.setState(job, .delayed(attempt: job.nextAttempt)))
    }

    /// Starts (or restarts) the quiet period: it ends a full quiet period from now.
    private mutating func beginQuiet(_ job: Job, now: Duration, actions: inout [Action]) {
        guard let trigger = job.spec.fileTrigger else { return }
        let until = now + trigger.quietPeriod
        let wasDelayed = job.phase == .delayed
        job.stage = .delayed(lossSeen: false)
        job.delayTimer = addTimer(at: until, key: job.key, kind: .delay)
        job.series?.fileWait = .quiet(until: until)
        if !wasDelayed { actions.append(.setState(job, .delayed(attempt: job.nextAttempt))) }
    }
}
