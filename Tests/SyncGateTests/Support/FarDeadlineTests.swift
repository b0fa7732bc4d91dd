import SyncGateTesting
import Testing

@testable import SyncGateCore

/// Deadlines beyond what Swift's clocks accept in one sleep (a job delayed by `.seconds(Int64.max)`,
/// a "never" some apps write): the timers reach them in steps, and the scheduler keeps running.
@Suite("Far deadlines", .timeLimit(.minutes(1)))
struct FarDeadlineTests {
    @Test("a deadline beyond the longest sleep is reached in sleeps of at most that length")
    func steps() async throws {
        let clock = ManualClock()
        let longest = ManualClock.longestSleep
        let start = clock.now
        let deadline = start.advanced(by: longest * 2 + .seconds(5))
        let sleeper = Task { try await clock.sleep(untilAnyDeadline: deadline) }
        for step in [start.advanced(by: longest), start.advanced(by: longest * 2), deadline] {
            await clock.waitForSleeper(until: step)
            #expect(clock.sleeperDeadlines == [step])
            clock.advance(to: step)
        }
        try await sleeper.value
        #expect(clock.now == deadline)
    }

    @Test("a deadline within the longest sleep is one sleep")
    func oneSleep() async throws {
        let clock = ManualClock()
        let deadline = clock.now.advanced(by: ManualClock.longestSleep)
        let sleeper = Task { try await clock.sleep(untilAnyDeadline: deadline) }
        await clock.waitForSleeper(until: deadline)
        clock.advance(to: deadline)
        try await sleeper.value
    }

    @Test("cancelled in a step, the sleep throws")
    func cancelled() async {
        let clock = ManualClock()
        let step = clock.now.advanced(by: ManualClock.longestSleep)
        let sleeper = Task { try await clock.sleep(untilAnyDeadline: step.advanced(by: .seconds(1))) }
        await clock.waitForSleeper(until: step)
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
    }

    /// On the real clock, as an app builds it: a delay, a run timeout and a retry's backoff of
    /// `.seconds(Int64.max)` each arm the scheduler's timer; the process trapped in the runtime's sleep.
    @Test("timers of .seconds(Int64.max) on the real clock: jobs wait, run and retry as told")
    func realClock() async throws {
        let manual = ManualSyncEnvironment(connectivity: .connected(via: .wiredEthernet))
        let scheduler = SyncScheduler(environment: manual.environment)
        let never = Duration.seconds(Int64.max)
        var delayed = SyncJob(requires: .network) { _ in }
        delayed.delay = never
        let waiting = try scheduler.submit(delayed)
        let timed = try scheduler.submit(SyncJob(requires: .network, runTimeout: never) { _ in })
        struct Failure: Error {}
        let failing = try scheduler.submit(
            SyncJob(requires: .network, retry: .fixed(delay: never, maxAttempts: 2)) { _ in throw Failure() })
        #expect(try await timed.outcome() == .succeeded)
        var states = failing.states.makeAsyncIterator()
        while let state = await states.next(), state != .delayed(attempt: 2) {}
        #expect(failing.state == .delayed(attempt: 2))
        #expect(waiting.state == .delayed(attempt: 1))
        let info = try #require(scheduler.jobs(matching: .init()).first { $0.id == waiting.id })
        #expect(info.delayRemaining.map { $0 > never - .seconds(60) } == true)
        await scheduler.shutdown(gracePeriod: .zero)
        #expect(try await waiting.outcome() == .cancelled)
    }
}
