/// Periodic jobs: a series of periods, each with a window at its end (docs/ARCHITECTURE.md §4).
///
/// A period reuses the job's timers: the delay timer opens the window, the deadline timer closes it.
/// An attempt starts only while its period's window is open. A window that closes before an attempt
/// started skips the period; the end of a period's run (its success, or its failure after its retries)
/// plans the next period from the end of the run's period, so periods follow each other back to back. A run that goes back to waiting inside its period (it was
/// requeued after its requirements were lost, or failed and waits to be retried) keeps the window's
/// close armed: when the window closes first, a requeued period counts as skipped and a period waiting
/// to retry counts as failed, and the next period is planned as usual. Nothing is planned while a run is
/// in progress, so two runs of one series never overlap.
extension SchedulerStateMachine {
    /// Starts the series of a periodic job that just became eligible: its first period begins now, or
    /// at the end of its initial delay; a restored series goes on from the period it was at, with the
    /// attempts that period already consumed (the job's initial failures) while it is still open.
    mutating func beginSeries(_ key: Key, now: Duration, startIfPossible: Bool, actions: inout [Action]) {
        guard let job = jobs[key] else { return }
        job.series = Series()
        if job.spec.calendar != nil {
            beginCalendar(key, now: now, startIfPossible: startIfPossible, actions: &actions)
            return
        }
        var anchor = max(now, job.submittedAt + (job.spec.delay ?? .zero))
        let resume = job.spec.seriesResume?.period
        if let resume {
            // A series continued after a restart: it goes on from one of its periods.
            job.series?.counts = resume.counts
            anchor = job.submittedAt + resume.anchor
        }
        planPeriod(
            key, beginning: anchor, now: now, keepingFailures: resume != nil, startIfPossible: startIfPossible,
            actions: &actions)
    }

    /// Plans the period that begins at `anchor`, skipping (and counting) every period whose window has
    /// closed by `now`.
    ///
    /// The period starts with no failed attempts, unless `keepingFailures` (a restored series resuming its
    /// period) and that period is still open: then its attempts go on from those it consumed.
    mutating func planPeriod(
        _ key: Key, beginning anchor: Duration, now: Duration, keepingFailures: Bool = false,
        startIfPossible: Bool, actions: inout [Action]
    ) {
        guard let job = jobs[key], let period = job.spec.period, job.series != nil else { return }
        let (begins, missed) = Self.firstOpenPeriod(from: anchor, interval: period.interval, now: now)
        job.series?.counts.skipped += missed
        job.series?.startedAt = nil
        job.series?.closesAt = begins + period.interval
        if missed > 0 || !keepingFailures { job.failures = 0 }
        job.deadlineTimer = addTimer(at: begins + period.interval, key: key, kind: .deadline)
        let opens = begins + period.interval - period.flex
        beginRelaxationWait(job, at: opens, now: now, actions: &actions)
        if opens > now {
            delayJob(key, until: opens, now: now, resettable: false, actions: &actions)
        } else {
            enterWaiting(key, now: now, startIfPossible: startIfPossible, actions: &actions)
        }
    }

    /// The start of the first period, from `anchor` on in steps of `interval`, whose end is after
    /// `now`, and how many periods before it ended by `now`.
    ///
    /// Beyond ``countedPeriods`` periods (a `Double` no longer counts them exactly), the first open period
    /// begins at `now` and the count stops there.
    static func firstOpenPeriod(from anchor: Duration, interval: Duration, now: Duration) -> (Duration, Int) {
        guard anchor + interval <= now else { return (anchor, 0) }
        let estimate = ((now - anchor) / interval).rounded(.down)
        guard estimate < Double(countedPeriods) else { return (now, countedPeriods) }
        var missed = Int(estimate)
        var begins = anchor + interval * missed
        while begins + interval <= now {
            begins += interval
            missed += 1
        }
        while missed > 0 && begins > now {
            begins -= interval
            missed -= 1
        }
        return (begins, missed)
    }

    /// The most missed periods ``firstOpenPeriod(from:interval:now:)`` counts at once: 2^52.
    static var countedPeriods: Int { 1 << 52 }

    /// The window of a periodic job's period closed before an attempt started: the period is skipped
    /// and the next one begins where it ended.
    mutating func skipPeriod(_ key: Key, now: Duration, actions: inout [Action]) {
        guard let job = jobs[key], let series = job.series, job.phase != .running else { return }
        if job.spec.calendar != nil {
            missOccurrence(key, now: now, actions: &actions)
            return
        }
        stopWaiting(job)
        job.series?.counts.skipped += 1
        planPeriod(key, beginning: series.closesAt, now: now, startIfPossible: false, actions: &actions)
        if let counts = job.series?.counts {
            actions.append(.emit(.periodEnded(id: job.spec.id, periods: counts), job))
        }
    }

    /// A period's run ended (succeeded, or failed after its retries): counts it and plans the next
    /// period from the end of the run's period (periods whose windows closed during the run are skipped).
    ///
    /// The next period has made no attempt yet: the job's attempt reads 0 until it starts, as it does for
    /// a series restored between periods.
    mutating func endPeriod(_ key: Key, succeeded: Bool, now: Duration, actions: inout [Action]) {
        guard let job = jobs[key], let series = job.series else { return }
        job.attempt = 0
        if succeeded {
            job.series?.counts.succeeded += 1
        } else {
            job.series?.counts.failed += 1
        }
        if job.spec.fileTrigger != nil {
            awaitNextChange(key, now: now, actions: &actions)
        } else if job.spec.calendar != nil {
            coverOccurrences(key, startedAt: series.startedAt ?? now, now: now)
            planCalendar(key, now: now, startIfPossible: false, actions: &actions)
        } else {
            // Periods follow each other back to back: the next begins where the run's period ends, wherever
            // in its window the run started (from the run's start, a series whose requirements always
            // held ran every interval − flex, and with a flex close to the interval, back to back).
            planPeriod(key, beginning: series.closesAt, now: now, startIfPossible: false, actions: &actions)
        }
        if let counts = job.series?.counts {
            actions.append(.emit(.periodEnded(id: job.spec.id, periods: counts), job))
        }
    }

    /// A periodic job's run went back to waiting or to a retry's delay inside its period: the close of
    /// the period's window is armed again (a start clears it), or, when the window has closed already,
    /// the period ends now.
    mutating func keepInWindow(_ key: Key, now: Duration, actions: inout [Action]) {
        guard let job = jobs[key], let series = job.series, job.phase != .running, job.deadlineTimer == 0,
            !isShutDown
        else { return }
        if series.catchingUp || job.spec.fileTrigger != nil { return }
        if series.closesAt > now {
            job.deadlineTimer = addTimer(at: series.closesAt, key: key, kind: .deadline)
        } else {
            closeWindow(key, now: now, actions: &actions)
        }
    }

    /// The window of a periodic job's period closed with no attempt running: a period waiting to retry
    /// a failed attempt counts as failed, any other as skipped.
    mutating func closeWindow(_ key: Key, now: Duration, actions: inout [Action]) {
        guard let job = jobs[key], job.phase != .running else { return }
        if job.failures > 0 {
            stopWaiting(job)
            endPeriod(key, succeeded: false, now: now, actions: &actions)
        } else {
            skipPeriod(key, now: now, actions: &actions)
        }
    }

    /// Takes a job that is not running out of its bucket or its delay, before its period is planned anew.
    ///
    /// A job taken out of its bucket is left delayed with no timer, so its stage never reads `waiting`
    /// outside a bucket; the plan that follows sets its stage.
    mutating func stopWaiting(_ job: Job) {
        switch job.phase {
        case .waiting:
            leaveBucket(job)
            job.stage = .delayed(lossSeen: false)
        case .delayed:
            job.delayTimer = 0
            resettable.remove(job.key)
            if job.series?.fileWait != nil { job.series?.fileWait = nil }
        case .parked, .running: break
        }
    }
}
