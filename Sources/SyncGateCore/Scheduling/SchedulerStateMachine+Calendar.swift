import Foundation

/// Calendar jobs: a series whose periods are the occurrences of a ``SyncCalendarSchedule``
/// (docs/ARCHITECTURE.md §4).
///
/// A calendar series is a periodic series (`SchedulerStateMachine+Periods.swift`) whose periods are
/// planned from the wall clock instead of the previous run: the period of an occurrence opens at the
/// occurrence plus its share of the randomized delay (the delay timer) and closes at the occurrence
/// plus the window (the deadline timer). Targets are wall-clock seconds; timers are offsets of the
/// monotonic clock, computed through the machine's ``CalendarWall``, and computed again when the wall
/// clock is set (``wallClockChanged(_:now:)``).
///
/// The rules:
/// * a run covers every occurrence up to its start: the next occurrence planned after it is later
///   than its start, so a run never repeats for an occurrence that already ran (a backward jump of the
///   wall clock does not run it again);
/// * an occurrence whose window closes without a run is, under ``SyncCalendarSchedule/CatchUpPolicy/catchUpOnce``,
///   kept as one catch-up run that waits for the requirements with no window (further occurrences that
///   pass meanwhile merge into it and are counted as skipped); under
///   ``SyncCalendarSchedule/CatchUpPolicy/skip`` it is skipped and counted;
/// * a forward jump of the wall clock past a planned occurrence's window never skips it: it becomes the
///   catch-up run, under either policy;
/// * when a series begins with occurrences in the past (a restore after downtime), those whose windows
///   closed count as missed: the latest runs once as a catch-up, or all are skipped, by the policy;
///   an occurrence whose window is still open runs in it;
/// * finding the occurrences that passed costs a few dozen occurrences' arithmetic however long the gap
///   (`SyncCalendarSchedule.passedOccurrences`), so a plan after years reaches now in one step and
///   there is one catch-up run;
/// * a series has planned through a span of wall-clock seconds (`coveredFrom` to `lastOccurrence`); a
///   backward jump into the span keeps what is planned in its place (nothing in it runs again), one to
///   before the span (the clock was ahead when the job was submitted or ran) holds the span
///   (`heldSpan`: its occurrences are not planned again) and plans again from the corrected time, so an
///   occurrence that has not run, planned or waiting to catch up, is never left waiting for the clock
///   to catch up;
/// * a wall clock too far from 1970 to compute an occurrence for leaves the job delayed with no timer
///   and no occurrence until the clock is set.
extension SchedulerStateMachine {
    /// Starts a calendar series: from its last occurrence when it was restored, else from now.
    ///
    /// A restored series whose next occurrence is the one it was at (its attempts consumed are the job's
    /// initial failures) runs it with its attempts going on from there.
    mutating func beginCalendar(_ key: Key, now: Duration, startIfPossible: Bool, actions: inout [Action]) {
        guard let job = jobs[key] else { return }
        let resume = job.spec.seriesResume?.calendar
        let wallNow = wall.second(at: now)
        if let resume {
            job.series?.counts = resume.counts
            job.series?.lastOccurrence = resume.lastOccurrenceSecond
            job.series?.heldSpan = resume.heldSpanSeconds
            // A clock that reads before the restored occurrence (one without a battery, before it is
            // set) plans from that occurrence; setting it back later plans again from then.
            job.series?.coveredFrom = min(resume.lastOccurrenceSecond, wallNow)
        } else {
            job.series?.lastOccurrence = wallNow
            job.series?.coveredFrom = wallNow
        }
        planCalendar(key, now: now, keepingFailures: resume != nil, startIfPossible: startIfPossible, actions: &actions)
    }

    /// Plans a calendar job's next period from its last occurrence and the wall clock now.
    ///
    /// The period starts with no failed attempts, unless `keepingFailures` (a restored series) and the
    /// occurrence it runs is the only one after its last: the one whose attempts the job consumed.
    mutating func planCalendar(
        _ key: Key, now: Duration, keepingFailures: Bool = false, startIfPossible: Bool, actions: inout [Action]
    ) {
        guard let job = jobs[key], let schedule = job.spec.calendar, let series = job.series else { return }
        let zone = schedule.timeZone ?? wall.zone
        let wallNow = wall.second(at: now)
        var from = series.lastOccurrence ?? wallNow
        if let coveredFrom = series.coveredFrom, wallNow < coveredFrom {
            // The wall clock was set back before everything the series planned through: it was ahead.
            // What ran or was skipped in that span stays covered; the rest plans from now.
            job.series?.heldSpan = coveredFrom...max(coveredFrom, from)
            job.series?.coveredFrom = wallNow
            job.series?.lastOccurrence = wallNow
            from = wallNow
            // The durable layer keeps the held span and the new start, so a restart plans from them too.
            actions.append(.reportSeries(job))
        }
        if let held = job.series?.heldSpan, from >= held.upperBound { job.series?.heldSpan = nil }
        let held = job.series?.heldSpan
        // The occurrences that passed since the last one, and the latest of them (at most a few dozen
        // computed, however long the gap).
        let (passed, latest) = Self.uncovered(schedule, after: from, through: wallNow, in: zone, held: held)
        let windowSeconds = Self.ceilingSeconds(schedule.window)
        let windowOpen = latest.map { $0 + windowSeconds > wallNow } ?? false
        if !(keepingFailures && passed == 1 && (windowOpen || schedule.catchUp == .catchUpOnce)) {
            job.failures = 0
        }
        job.series?.startedAt = nil
        job.series?.catchingUp = false
        if let latest, windowOpen {
            // The latest passed occurrence's window is still open: it runs in it.
            job.series?.counts.skipped += passed - 1
            schedulePeriod(key, occurrence: latest, now: now, startIfPossible: startIfPossible, actions: &actions)
        } else if let latest, schedule.catchUp == .catchUpOnce {
            job.series?.counts.skipped += passed - 1
            catchUp(key, occurrence: latest, now: now, startIfPossible: startIfPossible, actions: &actions)
        } else {
            job.series?.counts.skipped += passed
            if let latest { job.series?.lastOccurrence = latest }
            guard let next = Self.next(schedule, after: max(latest ?? from, wallNow), in: zone, held: held) else {
                awaitWallClock(job, actions: &actions)
                return
            }
            schedulePeriod(key, occurrence: next, now: now, startIfPossible: startIfPossible, actions: &actions)
        }
    }

    /// No occurrence follows on this reading of the wall clock (it reads more than
    /// ``SyncCalendarSchedule/supportedSeconds`` from 1970): the job is delayed with no timer and no
    /// occurrence (its `nextScheduledAt` is `nil`) until the wall clock is set.
    private mutating func awaitWallClock(_ job: Job, actions: inout [Action]) {
        job.series?.occurrence = nil
        job.deadlineTimer = 0
        job.stage = .delayed(lossSeen: false)
        job.delayTimer = 0
        actions.append(.setState(job, .delayed(attempt: job.nextAttempt)))
    }

    /// Arms the period of one occurrence: its window opens at the occurrence plus its delay share and
    /// closes at the occurrence plus the window.
    private mutating func schedulePeriod(
        _ key: Key, occurrence: Int64, now: Duration, startIfPossible: Bool, actions: inout [Action]
    ) {
        guard let job = jobs[key], let schedule = job.spec.calendar else { return }
        job.series?.occurrence = occurrence
        let closes = wall.offset(ofSecond: occurrence) + schedule.window
        let opens =
            wall.offset(ofSecond: occurrence)
            + schedule.delayShare(ofSecond: occurrence, seed: SyncCalendarSchedule.seed(forJobID: job.spec.id))
        job.series?.closesAt = closes
        job.deadlineTimer = addTimer(at: closes, key: key, kind: .deadline)
        // The wait of the job's relaxations begins at the scheduled time.
        beginRelaxationWait(job, at: wall.offset(ofSecond: occurrence), now: now, actions: &actions)
        if opens > now {
            delayJob(key, until: opens, now: now, resettable: false, actions: &actions)
        } else {
            enterWaiting(key, now: now, startIfPossible: startIfPossible, actions: &actions)
        }
    }

    /// Makes a missed occurrence the series' one catch-up run: it waits for its requirements, with no
    /// window. A job waiting in its bucket stays there; any other enters one.
    private mutating func catchUp(
        _ key: Key, occurrence: Int64, now: Duration, startIfPossible: Bool, actions: inout [Action]
    ) {
        guard let job = jobs[key] else { return }
        job.series?.occurrence = occurrence
        job.series?.catchingUp = true
        job.deadlineTimer = 0
        if job.phase != .waiting || job.delayTimer != 0 {
            job.delayTimer = 0
            resettable.remove(key)
            // Out of its bucket: the relaxations' wait (re)starts at the missed scheduled time, so those
            // due by now are in effect at once. A job already waiting keeps its wait for that time.
            beginRelaxationWait(job, at: wall.offset(ofSecond: occurrence), now: now, actions: &actions)
            enterWaiting(key, now: now, startIfPossible: startIfPossible, actions: &actions)
        }
    }

    /// The window of a calendar job's occurrence closed with no attempt running (and none waiting to be
    /// retried): the occurrence becomes the catch-up run, or is skipped, by the policy.
    mutating func missOccurrence(_ key: Key, now: Duration, actions: inout [Action]) {
        guard let job = jobs[key], let schedule = job.spec.calendar, let occurrence = job.series?.occurrence
        else { return }
        if schedule.catchUp == .catchUpOnce {
            catchUp(key, occurrence: occurrence, now: now, startIfPossible: false, actions: &actions)
            return
        }
        stopWaiting(job)
        job.series?.counts.skipped += 1
        job.series?.lastOccurrence = occurrence
        planCalendar(key, now: now, startIfPossible: false, actions: &actions)
        if let counts = job.series?.counts {
            actions.append(.emit(.periodEnded(id: job.spec.id, periods: counts), job))
        }
    }

    /// A calendar job's run ended: it covers its occurrence and every later one up to its start (those
    /// are counted as skipped), so none of them runs again.
    mutating func coverOccurrences(_ key: Key, startedAt: Duration, now: Duration) {
        guard let job = jobs[key], let schedule = job.spec.calendar, let occurrence = job.series?.occurrence
        else { return }
        let zone = schedule.timeZone ?? wall.zone
        let startSecond = wall.second(at: startedAt)
        let held = job.series?.heldSpan
        let (count, latest) = Self.uncovered(schedule, after: occurrence, through: startSecond, in: zone, held: held)
        job.series?.counts.skipped += count
        job.series?.lastOccurrence = latest ?? occurrence
        if let held, (latest ?? occurrence) >= held.upperBound { job.series?.heldSpan = nil }
        job.series?.occurrence = nil
    }

    /// Takes a new reading of the wall clock (it was set, or the time zone changed): every calendar job
    /// that is not running plans its period again. A planned occurrence keeps its place on the wall
    /// clock (so a jump backwards delays it, never repeats a run); one whose window a forward jump
    /// passed becomes the catch-up run, never a skip. A clock set back before the span the series has
    /// planned through plans again from the corrected time (the span's occurrences are not planned
    /// again). A job on the system's zone plans its occurrence anew when the zone changed, and a job
    /// with no occurrence (its clock read too far from 1970) plans again.
    mutating func wallClockChanged(_ reading: CalendarWall, now: Duration) -> [Action] {
        let zoneChanged = reading.zone != wall.zone
        wall = reading
        var actions = newActions()
        let keys = jobs.values.filter { $0.spec.calendar != nil && $0.series != nil }.map(\.key).sorted()
        for key in keys {
            guard let job = jobs[key], let schedule = job.spec.calendar, let series = job.series,
                job.phase != .running, job.phase != .parked, !isShutDown
            else { continue }
            if let coveredFrom = series.coveredFrom, wall.second(at: now) < coveredFrom {
                // Set back before everything the series planned through: an occurrence that has not run
                // (planned, or waiting to catch up) is planned again from now.
                stopWaiting(job)
                job.deadlineTimer = 0
                planCalendar(key, now: now, startIfPossible: false, actions: &actions)
                continue
            }
            guard !series.catchingUp else { continue }
            guard let occurrence = series.occurrence else {
                // No occurrence followed on the old reading: the new one may have one.
                stopWaiting(job)
                planCalendar(key, now: now, startIfPossible: false, actions: &actions)
                continue
            }
            if zoneChanged && schedule.timeZone == nil && job.failures == 0 {
                stopWaiting(job)
                job.deadlineTimer = 0
                planCalendar(key, now: now, startIfPossible: false, actions: &actions)
                continue
            }
            let closes = wall.offset(ofSecond: occurrence) + schedule.window
            if closes <= now {
                catchUp(key, occurrence: occurrence, now: now, startIfPossible: false, actions: &actions)
                continue
            }
            job.series?.closesAt = closes
            job.deadlineTimer = addTimer(at: closes, key: key, kind: .deadline)
            guard job.failures == 0 else { continue }
            let opens =
                wall.offset(ofSecond: occurrence)
                + schedule.delayShare(ofSecond: occurrence, seed: SyncCalendarSchedule.seed(forJobID: job.spec.id))
            if opens > now {
                if job.phase == .waiting { leaveBucket(job) }
                beginRelaxationWait(job, at: wall.offset(ofSecond: occurrence), now: now, actions: &actions)
                delayJob(key, until: opens, now: now, resettable: false, actions: &actions)
            } else if job.phase == .delayed {
                job.delayTimer = 0
                beginRelaxationWait(job, at: wall.offset(ofSecond: occurrence), now: now, actions: &actions)
                enterWaiting(key, now: now, startIfPossible: false, actions: &actions)
            }
        }
        dispatch(now: now, actions: &actions)
        rearm(&actions)
        return actions
    }

    /// The occurrences after `start` through `end` outside `held` (a span already covered): how many,
    /// and the latest.
    private static func uncovered(
        _ schedule: SyncCalendarSchedule, after start: Int64, through end: Int64, in zone: TimeZone,
        held: ClosedRange<Int64>?
    ) -> (count: Int, latest: Int64?) {
        guard let held, start < held.upperBound, end >= held.lowerBound else {
            return schedule.passedOccurrences(afterSecond: start, through: end, in: zone)
        }
        let none: (count: Int, latest: Int64?) = (0, nil)
        let before =
            start < held.lowerBound
            ? schedule.passedOccurrences(afterSecond: start, through: held.lowerBound - 1, in: zone) : none
        let after =
            end > held.upperBound
            ? schedule.passedOccurrences(afterSecond: held.upperBound, through: end, in: zone) : none
        return (before.count + after.count, after.latest ?? before.latest)
    }

    /// The first occurrence after `second` outside `held` (a span already covered).
    private static func next(
        _ schedule: SyncCalendarSchedule, after second: Int64, in zone: TimeZone, held: ClosedRange<Int64>?
    ) -> Int64? {
        guard let next = schedule.nextOccurrence(afterSecond: second, in: zone) else { return nil }
        guard let held, held.contains(next) else { return next }
        return schedule.nextOccurrence(afterSecond: held.upperBound, in: zone)
    }

    /// The wall-clock instant of a calendar job, for display; `nil` while it runs.
    func nextScheduledDate(of job: Job) -> Date? {
        guard job.phase != .running, let occurrence = job.series?.occurrence else { return nil }
        return CalendarWall.date(ofSecond: occurrence)
    }

    /// A calendar series' position as the event hooks receive it.
    static func calendarProgress(of series: Series) -> SchedulerEventDelivery.CalendarProgress {
        SchedulerEventDelivery.CalendarProgress(
            lastOccurrence: series.lastOccurrence.map(CalendarWall.date(ofSecond:)),
            occurrence: series.occurrence.map(CalendarWall.date(ofSecond:)), counts: series.counts,
            heldSpan: series.heldSpan.map {
                CalendarWall.date(ofSecond: $0.lowerBound)...CalendarWall.date(ofSecond: $0.upperBound)
            })
    }

    /// The whole seconds of `duration`, rounded up, and at most 2^52: occurrences lie within ±2^50 seconds
    /// of 1970, so a longer window is as good as endless, and the sum of an occurrence and a window never
    /// overflows.
    private static func ceilingSeconds(_ duration: Duration) -> Int64 {
        let bound: Int64 = 1 << 52
        guard duration < .seconds(bound) else { return bound }
        let (seconds, attoseconds) = duration.components
        return attoseconds > 0 ? seconds + 1 : seconds
    }
}
