import Testing

@testable import SyncGateCore

/// `SyncJobInfo.delayedUntil` and `delayRemaining`: when a delayed job's delay ends, for every kind of
/// delay, and nothing in the other states.
@Suite("Delayed until", .timeLimit(.minutes(1)))
struct DelayedUntilTests {
    typealias Harness = SchedulerStateMachineTests.Harness

    /// A way for the job "a" to be in some state, and what its info must say there.
    struct Scenario: Sendable, CustomTestStringConvertible {
        var name: String
        var drive: @Sendable (inout Harness) -> Void
        var state: SyncJobState
        /// The expected end of the delay, on the machine's clock; `nil` for none.
        var delayedUntil: Duration?
        var remaining: Duration?
        var testDescription: String { name }
    }

    static let scenarios: [Scenario] = [
        Scenario(
            name: "an initial delay, part of it waited",
            drive: { harness in
                _ = harness.advance(.seconds(5))
                harness.submit("a") { $0.delay = .seconds(600) }
                _ = harness.advance(.seconds(240))
            }, state: .delayed(attempt: 1), delayedUntil: .seconds(605), remaining: .seconds(360)),
        Scenario(
            name: "a retry's backoff",
            drive: { harness in
                harness.submit("a") { $0.retry = .fixed(delay: .seconds(30), maxAttempts: 3) }
                _ = harness.advance(.seconds(2))
                _ = harness.finish("a", .failure(SchedulerStateMachineTests.Failure()))
                _ = harness.advance(.seconds(10))
            }, state: .delayed(attempt: 2), delayedUntil: .seconds(32), remaining: .seconds(20)),
        Scenario(
            name: "a periodic job before its first window",
            drive: { harness in
                harness.submit("a") { $0.period = SyncJobPeriod(every: .seconds(60), flex: .seconds(10)) }
            }, state: .delayed(attempt: 1), delayedUntil: .seconds(50), remaining: .seconds(50)),
        Scenario(
            name: "an initial delay once it has passed: the job waits",
            drive: { harness in
                _ = harness.status(SchedulerStateMachineTests.offline)
                harness.submit("a") { $0.delay = .seconds(60) }
                _ = harness.advance(.seconds(60))
            }, state: .waiting(unmet: .network, conditions: []), delayedUntil: nil, remaining: nil),
        Scenario(
            name: "a running job",
            drive: { harness in harness.submit("a") },
            state: .running(attempt: 1), delayedUntil: nil, remaining: nil),
    ]

    @Test(arguments: scenarios)
    func theInfoSaysWhenTheDelayEnds(scenario: Scenario) throws {
        var harness = Harness()
        scenario.drive(&harness)
        let info = try #require(harness.machine.jobs(matching: .all, now: harness.now).first)
        #expect(info.state == scenario.state)
        #expect(info.delayedUntil == scenario.delayedUntil)
        #expect(info.delayRemaining == scenario.remaining)
    }

    @Test("the job's description says how much of the delay is left")
    func description() throws {
        var harness = Harness()
        harness.submit("a") { $0.delay = .seconds(7_200) }
        let info = try #require(harness.machine.jobs(matching: .all, now: harness.now).first)
        #expect(info.description == "a: delayed before attempt 1 (for 2h more)")
    }
}
