import Testing

@testable import SyncGateCore

/// File-triggered jobs on the pure state machine: a change, then the quiet period (restarted by every
/// change), then the requirements; changes during a run cause exactly one more run.
@Suite("Scheduler file triggers", .timeLimit(.minutes(1)))
struct SchedulerFileTriggerTests {
    typealias Harness = SchedulerStateMachineTests.Harness
    typealias Failure = SchedulerStateMachineTests.Failure

    static let trigger = SyncFileTrigger(paths: ["/data/docs"], quietPeriod: .seconds(5))

    @discardableResult
    static func submit(_ harness: inout Harness, _ id: String = "docs", configure: (inout SyncJob) -> Void = { _ in })
        -> [SchedulerStateMachineTests.Machine.Action]
    {
        harness.submit(id) {
            $0.fileTrigger = Self.trigger
            configure(&$0)
        }
    }

    @discardableResult
    static func change(_ harness: inout Harness, _ id: String = "docs") -> [SchedulerStateMachineTests.Machine.Action] {
        guard let key = harness.keys[id] else { return [] }
        return harness.record(harness.machine.filesChanged(key: key, now: harness.now))
    }

    static func wait(_ harness: Harness, _ id: String = "docs") -> SyncFileTrigger.Wait? {
        harness.machine.snapshot(now: harness.now).job(id)?.fileWait
    }

    static func periods(_ harness: Harness, _ id: String = "docs") -> SyncJobInfo.Periods? {
        harness.machine.snapshot(now: harness.now).job(id)?.periods
    }

    @Test("a new job waits for a change, with no timer armed, however long it waits")
    func waitsForAChange() {
        var harness = Harness()
        #expect(Self.submit(&harness).started.isEmpty)
        #expect(harness.phase("docs") == .delayed)
        #expect(Self.wait(harness) == .change)
        #expect(harness.machine.armedTimer == nil)
        #expect(harness.advance(.seconds(3_600)).started.isEmpty)
        #expect(
            harness.machine.snapshot(now: harness.now).job("docs")?.summary.contains("waiting for a change") == true)
    }

    @Test("a burst of changes runs the job once, a full quiet period after the last change")
    func burstRunsOnceAfterQuiet() {
        var harness = Harness()
        Self.submit(&harness)
        for _ in 0..<100 {
            #expect(Self.change(&harness).started.isEmpty)
            #expect(harness.advance(.seconds(1)).started.isEmpty)
        }
        // The last change was 1 s ago: the quiet period ends 4 s from now.
        #expect(Self.wait(harness) == .quiet(until: harness.now + .seconds(4)))
        #expect(harness.advance(.seconds(3)).started.isEmpty)
        #expect(harness.advance(.seconds(1)).started == ["docs"])
        #expect(harness.machine.running.count == 1)
        harness.finish("docs")
        #expect(Self.periods(harness) == .init(succeeded: 1, failed: 0, skipped: 0))
        #expect(Self.wait(harness) == .change)
        #expect(harness.advance(.seconds(600)).started.isEmpty)
    }

    @Test("changes during a run cause exactly one more run after it, with its own quiet period")
    func changeDuringRunRunsOnceMore() {
        var harness = Harness()
        Self.submit(&harness)
        _ = Self.change(&harness)
        #expect(harness.advance(.seconds(5)).started == ["docs"])
        for _ in 0..<10 { #expect(Self.change(&harness).started.isEmpty) }
        let ended = harness.finish("docs")
        #expect(ended.started.isEmpty)
        #expect(Self.wait(harness) == .quiet(until: harness.now + .seconds(5)))
        #expect(harness.advance(.seconds(5)).started == ["docs"])
        harness.finish("docs")
        // No change during the second run: the series waits.
        #expect(Self.wait(harness) == .change)
        #expect(harness.advance(.seconds(60)).started.isEmpty)
        #expect(Self.periods(harness) == .init(succeeded: 2, failed: 0, skipped: 0))
    }

    @Test("after the quiet period the run waits for its requirements; changes then are covered by that run")
    func waitsForRequirements() {
        var harness = Harness(status: SchedulerStateMachineTests.offline)
        Self.submit(&harness)
        _ = Self.change(&harness)
        #expect(harness.advance(.seconds(5)).started.isEmpty)
        #expect(harness.phase("docs") == .waiting)
        #expect(Self.wait(harness) == nil)
        _ = Self.change(&harness)
        #expect(harness.phase("docs") == .waiting)
        #expect(harness.advance(.seconds(600)).started.isEmpty)
        #expect(harness.status(SchedulerStateMachineTests.online).started == ["docs"])
        harness.finish("docs")
        #expect(Self.wait(harness) == .change)
    }

    @Test("cancelling ends the series in any of its waits and during a run")
    func cancel() {
        var harness = Harness()
        Self.submit(&harness, "a")
        Self.submit(&harness, "b")
        Self.submit(&harness, "c")
        _ = Self.change(&harness, "b")
        _ = Self.change(&harness, "c")
        #expect(harness.advance(.seconds(5)).started.sorted() == ["b", "c"])
        _ = Self.change(&harness, "b")
        #expect(harness.cancel("a").outcomes == ["a: cancelled"])
        #expect(harness.cancel("b").outcomes.isEmpty)
        #expect(harness.cancel("c").cancelled == [harness.keys["c"]])
        #expect(harness.finish("c", .failure(CancellationError())).outcomes == ["c: cancelled"])
        // The change during b's run does not outlive its cancellation.
        #expect(harness.finish("b", .failure(CancellationError())).outcomes == ["b: cancelled"])
        #expect(harness.machine.armedTimer == nil)
        #expect(Self.change(&harness, "a").isEmpty)
    }

    @Test("a failed run is retried by its policy; the series goes on after the last attempt, counted failed")
    func retries() {
        var harness = Harness()
        Self.submit(&harness) { $0.retry = .fixed(delay: .seconds(1), maxAttempts: 2) }
        _ = Self.change(&harness)
        #expect(harness.advance(.seconds(5)).started == ["docs"])
        _ = Self.change(&harness)
        #expect(harness.finish("docs", .failure(Failure())).started.isEmpty)
        // A change during the backoff is covered by the retry.
        _ = Self.change(&harness)
        #expect(harness.advance(.seconds(1)).started == ["docs"])
        harness.finish("docs", .failure(Failure()))
        #expect(Self.periods(harness) == .init(succeeded: 0, failed: 1, skipped: 0))
        #expect(Self.wait(harness) == .change)
    }

    @Test("a requeue after lost requirements waits again, never for a change")
    func requeue() {
        var harness = Harness()
        Self.submit(&harness) { $0.onRequirementsLost = .cancelAndRequeue }
        _ = Self.change(&harness)
        #expect(harness.advance(.seconds(5)).started == ["docs"])
        #expect(harness.status(SchedulerStateMachineTests.offline).cancelled == [harness.keys["docs"]])
        harness.finish("docs", .failure(CancellationError()))
        #expect(harness.phase("docs") == .waiting)
        #expect(harness.advance(.seconds(3_600)).started.isEmpty)
        #expect(harness.status(SchedulerStateMachineTests.online).started == ["docs"])
    }

    @Test("a restored series with a pending change begins with its quiet period and keeps its counts")
    func restoredWithChange() {
        var harness = Harness()
        Self.submit(&harness) {
            $0.options.seriesResume = .fileTrigger(
                .init(counts: .init(succeeded: 3, failed: 1, skipped: 0), changed: true))
        }
        #expect(Self.wait(harness) == .quiet(until: .seconds(5)))
        #expect(harness.advance(.seconds(5)).started == ["docs"])
        harness.finish("docs")
        #expect(Self.periods(harness) == .init(succeeded: 4, failed: 1, skipped: 0))
    }

    @Test("a job cannot depend on a file-triggered series (it never succeeds)")
    func noDependents() {
        var harness = Harness()
        Self.submit(&harness)
        var dependent = SyncJob(id: "after") { _ in }
        dependent.dependsOn = ["docs"]
        guard
            case .rejected(.invalidJob(let refusal)) = harness.machine.submit(
                dependent.spec, payload: "after", now: .zero)
        else {
            Issue.record("a dependent of a file-triggered job was accepted")
            return
        }
        #expect(refusal.field == "dependsOn")
        #expect(refusal.relatedJobs == ["docs"])
    }

    static func options(_ configure: (inout SyncJobOptions) -> Void) -> SyncJobOptions {
        var options = SyncJobOptions()
        configure(&options)
        return options
    }

    @Test(
        "invalid triggers and combinations are refused naming the field",
        arguments: [
            ("fileTrigger.paths", options { $0.fileTrigger = .init(paths: [], quietPeriod: .zero) }),
            ("fileTrigger.paths", options { $0.fileTrigger = .init(paths: [""], quietPeriod: .zero) }),
            ("fileTrigger.quietPeriod", options { $0.fileTrigger = .init(paths: ["/a"], quietPeriod: .seconds(-1)) }),
            (
                "period",
                options {
                    $0.fileTrigger = trigger
                    $0.period = SyncJobPeriod(every: .seconds(60), flex: .zero)
                }
            ),
            (
                "calendar",
                options {
                    $0.fileTrigger = trigger
                    $0.calendar = SyncCalendarSchedule(hours: [2], minutes: [0], window: .seconds(60))
                }
            ),
            (
                "startDeadline",
                options {
                    $0.fileTrigger = trigger
                    $0.startDeadline = .seconds(1)
                }
            ),
            (
                "delay",
                options {
                    $0.fileTrigger = trigger
                    $0.delay = .seconds(30)
                }
            ),
        ])
    func refusals(field: String, options: SyncJobOptions) {
        #expect(options.validationError?.field == field)
        #expect(options.validationError?.reason.contains(field) == true)
    }

    @Test("a zero delay is no delay, and a file-triggered job may have it")
    func zeroDelay() {
        var options = SyncJobOptions(requires: .none)
        options.fileTrigger = Self.trigger
        options.delay = .zero
        #expect(options.validationError == nil)
    }
}
