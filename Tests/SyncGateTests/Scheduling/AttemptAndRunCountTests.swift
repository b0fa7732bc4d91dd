import SyncGateTesting
import Testing

@testable import SyncGateCore

/// One definition of attempt and run everywhere: an attempt counts against the retry budget, a run is
/// every start. `SyncJobInfo.attempts` is the attempt of `SyncJobContext.attempt`, the `started` events
/// and `.running(attempt:)`; `SyncJobInfo.runs` counts the starts.
@Suite("Attempts and runs", .timeLimit(.minutes(1)))
struct AttemptAndRunCountTests {
    typealias Harness = SchedulerStateMachineTests.Harness
    typealias Failure = SchedulerStateMachineTests.Failure

    /// A way for a job to start twice, and the counts it must leave.
    struct Scenario: Sendable, CustomTestStringConvertible {
        var name: String
        /// Runs the job "a" from its submission to its second start.
        var drive: @Sendable (inout Harness) -> [SyncSchedulerEvent]
        var attempts: Int
        var runs: Int
        var startedAttempts: [Int]
        var testDescription: String { name }
    }

    static let scenarios: [Scenario] = [
        Scenario(
            name: "a requeue after lost requirements runs the same attempt again",
            drive: { harness in
                var events = harness.submit("a") { $0.requirements = .largeTransfer }.events
                events += harness.status(SchedulerStateMachineTests.hotspot).events
                events += harness.finish("a", .failure(CancellationError())).events
                events += harness.status(SchedulerStateMachineTests.online).events
                return events
            }, attempts: 1, runs: 2, startedAttempts: [1, 1]),
        Scenario(
            name: "a retry after a failure is the next attempt",
            drive: { harness in
                var events = harness.submit("a") { $0.retry = .fixed(delay: .seconds(1), maxAttempts: 3) }.events
                events += harness.finish("a", .failure(Failure())).events
                events += harness.advance(.seconds(1)).events
                return events
            }, attempts: 2, runs: 2, startedAttempts: [1, 2]),
    ]

    @Test(arguments: scenarios)
    func theInfoTheEventsAndTheStateAgree(scenario: Scenario) throws {
        var harness = Harness()
        let events = scenario.drive(&harness)
        let started = events.compactMap { event -> Int? in
            if case .started(_, let attempt) = event { return attempt }
            return nil
        }
        #expect(started == scenario.startedAttempts)
        let running = try #require(harness.machine.jobs(matching: .all, now: harness.now).first)
        #expect(running.state == .running(attempt: scenario.attempts))
        #expect(running.attempts == scenario.attempts)
        #expect(running.runs == scenario.runs)
        _ = harness.finish("a")
        let finished = try #require(harness.machine.jobs(matching: .all, now: harness.now).first)
        #expect(finished.outcome == .succeeded)
        #expect(finished.attempts == scenario.attempts)
        #expect(finished.runs == scenario.runs)
        let suffix = scenario.attempts == scenario.runs ? "" : " (\(scenario.runs) runs)"
        let plural = scenario.attempts == 1 ? "" : "s"
        #expect(finished.description == "a: succeeded after \(scenario.attempts) attempt\(plural)\(suffix)")
    }

    /// Through the scheduler: the operation's `context.attempt`, the events and `jobs(matching:)` agree
    /// after a requeue.
    @Test func aRequeuedJobSeesTheSameAttemptInItsContext() async throws {
        let clock = ManualClock()
        let manual = ManualSyncEnvironment(account: .available, clock: clock)
        manual.setConnectivity(.connected(via: .wifi))
        let scheduler = SyncScheduler(environment: manual.environment, clock: clock)
        let seen = StatusBroadcast<[Int]>([])
        let handle = try scheduler.submit(
            SyncJob(id: "upload", requires: .largeTransfer) { context in
                _ = seen.update { $0.append(context.attempt) }
                if seen.value.count == 1 {
                    // The first run waits until the loss cancels its task (which ends the iteration).
                    let pending = AsyncStream<Void>.makeStream()
                    for await _ in pending.stream {}
                    pending.continuation.finish()
                    throw CancellationError()
                }
            })
        for await attempts in seen.stream() where attempts.count == 1 { break }
        let events = scheduler.events
        manual.setConnectivity(.connected(via: .cellular, isExpensive: true))
        for await event in events where event == .requeued(id: "upload", lost: .unmetered) { break }
        manual.setConnectivity(.connected(via: .wifi))
        #expect(try await handle.outcome().state == .succeeded)
        #expect(seen.value == [1, 1])
        let info = try #require(scheduler.job(id: "upload"))
        #expect(info.attempts == 1)
        #expect(info.runs == 2)
    }
}
