import Testing

@testable import SyncGateCore

/// Periodic jobs on the pure state machine: windows, skips, periods back to back whenever their runs
/// start, and the end of a series.
@Suite("Scheduler periods", .timeLimit(.minutes(1)))
struct SchedulerPeriodTests {
    typealias Harness = SchedulerStateMachineTests.Harness
    typealias Failure = SchedulerStateMachineTests.Failure

    /// Every 60 s, startable in the last 10 s of each period.
    static let period = SyncJobPeriod(every: .seconds(60), flex: .seconds(10))

    static func periods(_ harness: Harness, _ id: String = "tick") -> SyncJobInfo.Periods? {
        harness.machine.snapshot(now: harness.now).job(id)?.periods
    }

    @Test("a run starts when the window opens at the end of its period; the next period begins where it ends")
    func periodsBackToBack() {
        var harness = Harness()
        #expect(harness.submit("tick") { $0.period = Self.period }.started.isEmpty)
        #expect(harness.advance(.seconds(49)).started.isEmpty)
        #expect(harness.advance(.seconds(1)).started == ["tick"])
        _ = harness.advance(.seconds(30))
        let ended = harness.finish("tick")
        #expect(ended.outcomes.isEmpty)
        #expect(ended.events == [.periodEnded(id: "tick", periods: .init(succeeded: 1, failed: 0, skipped: 0))])
        #expect(harness.phase("tick") == .delayed)
        // The next period began where the run's period ended (60 s), not at the run's start (50 s): its
        // window opens at 110 s, so runs keep the cadence of the interval (from the start, every 50 s).
        #expect(harness.advance(.seconds(29)).started.isEmpty)
        #expect(harness.advance(.seconds(1)).started == ["tick"])
        #expect(Self.periods(harness) == .init(succeeded: 1, failed: 0, skipped: 0))
    }

    /// Each period counts its attempts from 1, so between periods the job has made none: its attempts read
    /// 0, as they do for a series restored between periods (they read the last period's before, so the
    /// daemon's ATTEMPT column of an idle calendar job changed from 1 to 0 across a restart).
    @Test("between periods a periodic job's attempts read 0; a retried period counts from 1 again")
    func attemptsStartAgainEachPeriod() {
        var harness = Harness()
        harness.submit("tick") {
            $0.period = Self.period
            $0.retry = .fixed(delay: .seconds(1), maxAttempts: 3)
        }
        func attempts() -> Int? { harness.machine.jobs(matching: .all, now: harness.now).first?.attempts }
        #expect(attempts() == 0)
        #expect(harness.advance(.seconds(50)).started == ["tick"])
        #expect(attempts() == 1)
        _ = harness.finish("tick", .failure(Failure()))
        #expect(harness.advance(.seconds(1)).started == ["tick"])
        #expect(attempts() == 2)
        _ = harness.finish("tick")
        #expect(attempts() == 0)
        #expect(harness.advance(.seconds(59)).started == ["tick"])
        #expect(attempts() == 1)
    }

    /// A flex close to the interval opens each window just after the one before closed: planned from the
    /// run's start, the next window opened 0.1 s after it, and a job whose requirements held ran back to
    /// back (the daemon ran `--every 1m --flex 59.9s` 25 times in 3 s).
    @Test("a flex close to the interval still runs once per period")
    func wideFlexRunsOncePerPeriod() {
        var harness = Harness()
        harness.submit("tick") { $0.period = SyncJobPeriod(every: .seconds(60), flex: .milliseconds(59_900)) }
        var starts: [Duration] = []
        for _ in 0..<6_000 {
            if !harness.advance(.milliseconds(100)).started.isEmpty {
                starts.append(harness.now)
                _ = harness.finish("tick")
            }
        }
        // 600 s: one run in each of the ten periods, at its window's opening.
        #expect(starts == (0..<10).map { .milliseconds(100) + .seconds(60 * $0) })
    }

    @Test("a window that closes while the requirements are unmet skips the period, counted")
    func skipWhileUnmet() {
        var harness = Harness(status: SchedulerStateMachineTests.offline)
        harness.submit("tick") { $0.period = Self.period }
        #expect(harness.advance(.seconds(50)).started.isEmpty)
        #expect(harness.phase("tick") == .waiting)
        let closed = harness.advance(.seconds(10))
        #expect(closed.started.isEmpty)
        #expect(closed.events == [.periodEnded(id: "tick", periods: .init(succeeded: 0, failed: 0, skipped: 1))])
        #expect(Self.periods(harness) == .init(succeeded: 0, failed: 0, skipped: 1))
        // The next period began where the skipped one ended (60 s): window 110–120 s.
        #expect(harness.status(SchedulerStateMachineTests.online).started.isEmpty)
        #expect(harness.advance(.seconds(49)).started.isEmpty)
        #expect(harness.advance(.seconds(1)).started == ["tick"])
    }

    @Test("after a long time offline the series resumes with one run, never a burst")
    func noBurstAfterOffline() {
        var harness = Harness(status: SchedulerStateMachineTests.offline)
        harness.submit("tick") { $0.period = Self.period }
        _ = harness.advance(.seconds(1_000))
        // Windows closing at 60, 120, …, 960 s passed: 16 skips; the current period is 960–1020 s.
        #expect(Self.periods(harness)?.skipped == 16)
        #expect(harness.status(SchedulerStateMachineTests.online).started.isEmpty)
        #expect(harness.advance(.seconds(10)).started == ["tick"])
        #expect(harness.machine.running.count == 1)
    }

    @Test("a run longer than the next window skips the periods it overlapped; runs never overlap")
    func longRunSkips() {
        var harness = Harness()
        harness.submit("tick") { $0.period = Self.period }
        #expect(harness.advance(.seconds(50)).started == ["tick"])
        #expect(harness.advance(.seconds(150)).started.isEmpty)
        #expect(harness.finish("tick").started.isEmpty)
        // From the run's period's end at 60 s: the periods ending at 120 and 180 s are gone; next window
        // 230–240 s.
        #expect(Self.periods(harness) == .init(succeeded: 1, failed: 0, skipped: 2))
        #expect(harness.advance(.seconds(29)).started.isEmpty)
        #expect(harness.advance(.seconds(1)).started == ["tick"])
    }

    @Test("a period that fails after its retries is counted and the series goes on")
    func failedPeriod() {
        var harness = Harness()
        harness.submit("tick") {
            $0.period = Self.period
            $0.retry = .fixed(delay: .seconds(1), maxAttempts: 2)
        }
        _ = harness.advance(.seconds(50))
        #expect(
            harness.finish("tick", .failure(Failure())).events.contains(
                .retryScheduled(id: "tick", attempt: 2, delay: .seconds(1))))
        #expect(harness.advance(.seconds(1)).started == ["tick"])
        #expect(harness.finish("tick", .failure(Failure())).outcomes.isEmpty)
        #expect(Self.periods(harness) == .init(succeeded: 0, failed: 1, skipped: 0))
        // The next window opens at 110 s.
        #expect(harness.advance(.seconds(58)).started.isEmpty)
        #expect(harness.advance(.seconds(1)).started == ["tick"])
        #expect(harness.machine.snapshot(now: harness.now).job("tick")?.attempt == 1)
    }

    @Test("a run requeued after a loss stays in its window: offline for many periods, each is skipped and counted")
    func requeuedRunKeepsItsWindow() {
        var harness = Harness()
        harness.submit("tick") {
            $0.period = Self.period
            $0.onRequirementsLost = .cancelAndRequeue
        }
        #expect(harness.advance(.seconds(50)).started == ["tick"])
        #expect(harness.status(SchedulerStateMachineTests.offline).cancelled == [harness.keys["tick"]])
        _ = harness.advance(.seconds(5))
        let requeued = harness.finish("tick", .failure(CancellationError()))
        #expect(requeued.events.contains { if case .requeued = $0 { true } else { false } })
        // The window (50–60 s) closes while the requirements are unmet: the period is skipped.
        #expect(harness.machine.armedTimer == .seconds(60))
        let closed = harness.advance(.seconds(5))
        #expect(closed.events == [.periodEnded(id: "tick", periods: .init(succeeded: 0, failed: 0, skipped: 1))])
        // 1 000 s offline: every window closing at 120, 180, …, 1 020 s is skipped too.
        _ = harness.advance(.seconds(1_000))
        #expect(Self.periods(harness) == .init(succeeded: 0, failed: 0, skipped: 17))
        // Back online between windows: nothing starts until the current period's window (1 070–1 080 s).
        #expect(harness.status(SchedulerStateMachineTests.online).started.isEmpty)
        #expect(harness.advance(.seconds(9)).started.isEmpty)
        #expect(harness.advance(.seconds(1)).started == ["tick"])
        #expect(harness.machine.running.count == 1)
    }

    @Test("a failed attempt waiting to be retried when the window closes: the period counts as failed")
    func retryPastTheWindow() {
        var harness = Harness()
        harness.submit("tick") {
            $0.period = Self.period
            $0.retry = .fixed(delay: .seconds(30), maxAttempts: 3)
        }
        #expect(harness.advance(.seconds(50)).started == ["tick"])
        let failed = harness.finish("tick", .failure(Failure()))
        #expect(failed.events.contains(.retryScheduled(id: "tick", attempt: 2, delay: .seconds(30))))
        // The retry would start at 80 s, after the window closed at 60 s: the period fails at 60 s.
        #expect(harness.machine.armedTimer == .seconds(60))
        let closed = harness.advance(.seconds(10))
        #expect(closed.started.isEmpty)
        #expect(closed.events == [.periodEnded(id: "tick", periods: .init(succeeded: 0, failed: 1, skipped: 0))])
        // The next period begins where the failed one ended (60 s): window 110–120 s, first attempt again.
        #expect(harness.machine.armedTimer == .seconds(110))
        #expect(harness.advance(.seconds(49)).started.isEmpty)
        #expect(harness.advance(.seconds(1)).started == ["tick"])
        #expect(harness.machine.snapshot(now: harness.now).job("tick")?.attempt == 1)
    }

    @Test("a failed attempt retried inside the window starts there; offline past the close, the period fails")
    func retryInsideTheWindowWhileOffline() {
        var harness = Harness()
        harness.submit("tick") {
            $0.period = Self.period
            $0.retry = .fixed(delay: .seconds(2), maxAttempts: 3)
        }
        #expect(harness.advance(.seconds(50)).started == ["tick"])
        _ = harness.finish("tick", .failure(Failure()))
        _ = harness.status(SchedulerStateMachineTests.offline)
        #expect(harness.advance(.seconds(2)).started.isEmpty)
        #expect(harness.phase("tick") == .waiting)
        let closed = harness.advance(.seconds(8))
        #expect(closed.events == [.periodEnded(id: "tick", periods: .init(succeeded: 0, failed: 1, skipped: 0))])
        // Online again at 61 s, between windows: nothing starts until the next window (110–120 s).
        _ = harness.advance(.seconds(1))
        #expect(harness.status(SchedulerStateMachineTests.online).started.isEmpty)
        #expect(harness.advance(.seconds(48)).started.isEmpty)
        #expect(harness.advance(.seconds(1)).started == ["tick"])
    }

    @Test("the armed timer is always the earliest that counts: a started job's start deadline is not left armed")
    func noStaleTimerAfterStart() {
        var harness = Harness(status: SchedulerStateMachineTests.offline)
        harness.submit("soon") { $0.startDeadline = .seconds(10) }
        harness.submit("tick") { $0.period = Self.period }
        #expect(harness.machine.armedTimer == .seconds(10))
        // "soon" expires at 10 s; the next timer that counts opens tick's window at 50 s.
        _ = harness.advance(.seconds(10))
        #expect(harness.machine.armedTimer == .seconds(50))
        harness.submit("late") { $0.startDeadline = .seconds(5) }
        #expect(harness.machine.armedTimer == .seconds(15))
        // "late" starts at once when the network returns: its deadline no longer counts.
        #expect(harness.status(SchedulerStateMachineTests.online).started == ["late"])
        #expect(harness.machine.armedTimer == .seconds(50))
        _ = harness.cancel("tick")
        #expect(harness.machine.armedTimer == nil)
    }

    @Test("cancelling a periodic job ends the series, waiting or running")
    func cancelEndsSeries() {
        var harness = Harness()
        harness.submit("waiting") { $0.period = Self.period }
        harness.submit("running") { $0.period = SyncJobPeriod(every: .seconds(20), flex: .seconds(5)) }
        #expect(harness.advance(.seconds(15)).started == ["running"])
        #expect(harness.cancel("waiting").outcomes == ["waiting: cancelled"])
        #expect(harness.cancel("running").cancelled == [harness.keys["running"]])
        #expect(harness.finish("running", .failure(CancellationError())).outcomes == ["running: cancelled"])
        #expect(harness.machine.jobCount == 0)
        #expect(harness.advance(.seconds(1_000)).isEmpty)
    }

    @Test(
        "the first open period after missed ones",
        arguments: [
            (anchor: 0, now: 59, begins: 0, missed: 0),
            (anchor: 0, now: 60, begins: 60, missed: 1),
            (anchor: 0, now: 1_000, begins: 960, missed: 16),
            (anchor: 50, now: 200, begins: 170, missed: 2),
            (anchor: 100, now: 20, begins: 100, missed: 0),
        ])
    func firstOpenPeriod(anchor: Int, now: Int, begins: Int, missed: Int) {
        let result = SchedulerStateMachine<String>.firstOpenPeriod(
            from: .seconds(anchor), interval: .seconds(60), now: .seconds(now))
        #expect(result.0 == .seconds(begins))
        #expect(result.1 == missed)
    }

    /// A tiny interval after a long absence (a manual clock moved far, or a period of nanoseconds) counts
    /// more periods than a `Double` holds exactly: the first open period begins now, the count stops at
    /// 2^52, and nothing traps.
    @Test(
        "more missed periods than a Double counts: the next begins now",
        arguments: [
            (Duration.nanoseconds(2), Duration.seconds(Int64.max)),
            (Duration.nanoseconds(1), Duration.seconds(1 << 40)),
            (Duration.seconds(1), Duration.seconds(Int64.max)),
        ])
    func farPeriods(interval: Duration, now: Duration) {
        let (begins, missed) = SchedulerStateMachine<String>.firstOpenPeriod(
            from: .seconds(5), interval: interval, now: now)
        #expect(begins <= now && begins + interval > now)
        #expect(missed == SchedulerStateMachine<String>.countedPeriods)
    }

    @Test(
        "invalid periodic options are rejected, naming the field and the value",
        arguments: [
            (
                SyncJobPeriod(every: .zero, flex: .seconds(1)), nil as Duration?, nil as String?,
                "period.interval must be positive, got 0.0 seconds"
            ),
            (
                SyncJobPeriod(every: .seconds(60), flex: .seconds(60)), nil, nil,
                "period.flex must be positive and shorter than period.interval (60.0 seconds), got 60.0 seconds"
            ),
            (
                SyncJobPeriod(every: .seconds(60), flex: .zero), nil, nil,
                "period.flex must be positive and shorter than period.interval (60.0 seconds), got 0.0 seconds"
            ),
            (
                Self.period, .seconds(5), nil,
                "startDeadline must be nil for a periodic job (each period has its window), got 5.0 seconds"
            ),
            (
                Self.period, nil, "uploads",
                "serialGroup must be nil for a periodic job (a series would hold its turn), got \"uploads\""
            ),
        ])
    func validation(period: SyncJobPeriod, startDeadline: Duration?, serialGroup: String?, reason: String) {
        let options = SyncJobOptions(startDeadline: startDeadline, serialGroup: serialGroup, period: period)
        #expect(options.validationError?.reason == reason)
    }
}
