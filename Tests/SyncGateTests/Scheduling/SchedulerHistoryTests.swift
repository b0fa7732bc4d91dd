import Testing

@testable import SyncGateCore

/// Queries and the history of finished jobs on the pure state machine.
@Suite("Scheduler history", .timeLimit(.minutes(1)))
struct SchedulerHistoryTests {
    typealias Machine = SchedulerStateMachine<String>
    typealias Failure = SchedulerStateMachineTests.Failure

    static func harness(_ retention: SyncJobHistoryRetention) -> SchedulerStateMachineTests.Harness {
        var harness = SchedulerStateMachineTests.Harness()
        harness.machine = Machine(
            maxConcurrentJobs: 4, status: SchedulerStateMachineTests.online, retention: retention)
        return harness
    }

    @Test("finished jobs are kept with their outcome, attempts and timings")
    func keepsFinished() throws {
        var harness = Self.harness(.init())
        harness.submit("a") {
            $0.retry = .fixed(delay: .seconds(2), maxAttempts: 2)
            $0.tags = ["upload"]
        }
        harness.now = .seconds(1)
        harness.finish("a", .failure(Failure()))
        _ = harness.advance(.seconds(2))
        harness.now = .seconds(5)
        harness.finish("a")
        let info = try #require(harness.machine.jobs(matching: .all, now: harness.now).first)
        #expect(info.id == "a")
        #expect(info.outcome == .succeeded)
        #expect(info.state == .succeeded)
        #expect(info.attempts == 2)
        #expect(info.submittedAt == .zero)
        #expect(info.firstStartedAt == .zero)
        #expect(info.lastStartedAt == .seconds(3))
        #expect(info.finishedAt == .seconds(5))
        #expect(info.tags == ["upload"])
    }

    @Test("retention by count drops the oldest finished jobs first")
    func retentionByCount() {
        var harness = Self.harness(.init(maxCount: 2))
        for id in ["a", "b", "c"] {
            harness.submit(id)
            harness.finish(id)
        }
        #expect(harness.machine.jobs(matching: .all, now: harness.now).map(\.id) == ["b", "c"])
    }

    @Test("retention by age hides and drops jobs finished longer ago than maxAge")
    func retentionByAge() {
        var harness = Self.harness(.init(maxCount: 10, maxAge: .seconds(60)))
        harness.submit("old")
        harness.finish("old")
        harness.now = .seconds(30)
        harness.submit("new")
        harness.finish("new")
        #expect(harness.machine.jobs(matching: .all, now: .seconds(59)).map(\.id) == ["old", "new"])
        #expect(harness.machine.jobs(matching: .all, now: .seconds(60)).map(\.id) == ["new"])
        #expect(harness.machine.jobs(matching: .all, now: .seconds(90)).isEmpty)
    }

    @Test("a dependency finished longer ago than maxAge is unknown to a new dependent")
    func dependencyPastMaxAge() {
        var harness = Self.harness(.init(maxCount: 10, maxAge: .seconds(60)))
        harness.submit("old")
        harness.finish("old")
        harness.now = .seconds(60)
        let job = SyncJob(id: "late", dependsOn: ["old"]) { _ in }
        guard case .rejected(let error) = harness.machine.submit(job.spec, payload: "late", now: harness.now) else {
            Issue.record("late was accepted")
            return
        }
        #expect(
            "\(error)" == "invalid job: dependsOn names unknown jobs \"old\" (neither unfinished nor in the history)")
    }

    @Test("no retention keeps nothing")
    func noRetention() {
        var harness = Self.harness(.none)
        harness.submit("a")
        harness.finish("a")
        #expect(harness.machine.jobs(matching: .all, now: harness.now).isEmpty)
    }

    @Test(
        "queries match by id, tag, unique key and state, over unfinished and kept jobs",
        arguments: [
            (SyncJobQuery(ids: ["done"]), ["done"]),
            (SyncJobQuery(tags: ["photos"]), ["waiting", "done"]),
            (SyncJobQuery(uniqueKeys: ["inbox"]), ["running"]),
            (SyncJobQuery(states: [.running, .failed]), ["running", "failed"]),
            (SyncJobQuery(tags: ["photos"], states: [.succeeded]), ["done"]),
            (SyncJobQuery.all, ["running", "waiting", "done", "failed"]),
        ])
    func queries(query: SyncJobQuery, expected: [String]) {
        var harness = Self.harness(.init())
        harness.submit("done") { $0.tags = ["photos"] }
        harness.submit("failed")
        harness.submit("running") { $0.uniqueKey = "inbox" }
        harness.submit("waiting") {
            $0.tags = ["photos", "large"]
            $0.requirements = .largeTransfer
            $0.conditions = ["never"]
        }
        harness.finish("done")
        harness.finish("failed", .failure(Failure()))
        #expect(harness.machine.jobs(matching: query, now: harness.now).map(\.id) == expected)
    }

    @Test("history.maxCount and history.maxAge are validated, naming the field and value")
    func validation() {
        #expect(
            SyncJobHistoryRetention(maxCount: -1).validationError == "history.maxCount must not be negative, got -1")
        #expect(
            SyncJobHistoryRetention(maxAge: .zero).validationError == "history.maxAge must be positive, got 0.0 seconds"
        )
    }
}
