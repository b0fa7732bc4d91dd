import Foundation
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

    /// A duration option beyond `.seconds(Int64.max)`, set at the field.
    struct TooLong: Sendable, CustomTestStringConvertible {
        var field: String
        var set: @Sendable (inout SyncJobOptions) -> Void
        var testDescription: String { field }
    }

    /// `Duration(attoseconds: .max)`, about 1.7 × 10^20 seconds: added to a clock reading it trapped.
    static let beyond = Duration(attoseconds: .max)

    static let tooLong: [TooLong] = [
        TooLong(field: "delay") { $0.delay = beyond },
        TooLong(field: "startDeadline") { $0.startDeadline = beyond },
        TooLong(field: "runTimeout") { $0.runTimeout = beyond },
        TooLong(field: "retry.delay") {
            $0.retry = .fixed(delay: .seconds(Int64.max) + .nanoseconds(1), maxAttempts: 2)
        },
        TooLong(field: "retry.maxDelay") {
            $0.retry = .exponential(initial: .seconds(1), maxDelay: beyond)
        },
        TooLong(field: "period.interval") { $0.period = SyncJobPeriod(every: beyond, flex: .seconds(60)) },
        TooLong(field: "calendar.window") { $0.calendar = .daily(hour: 2, minute: 0, window: beyond) },
        TooLong(field: "fileTrigger.quietPeriod") {
            $0.fileTrigger = SyncFileTrigger(paths: ["/tmp"], quietPeriod: beyond)
        },
        TooLong(field: "relaxations") { $0.relaxations = [.drop(.unmetered, after: beyond)] },
    ]

    /// Each such option trapped once the scheduler added it to the clock (or, for a calendar window, to
    /// an occurrence); now the job is refused, naming the field, and what was queued stays.
    @Test("a duration option beyond .seconds(Int64.max) is refused, naming the field", arguments: tooLong)
    func durationBeyondTheLongest(_ test: TooLong) throws {
        let manual = ManualSyncEnvironment(connectivity: .disconnected)
        let scheduler = SyncScheduler(environment: manual.environment, clock: ManualClock())
        let queued = try scheduler.submit(SyncJob(id: "queued", requires: .network) { _ in })
        var options = SyncJobOptions(requires: [.network, .unmetered])
        test.set(&options)
        do {
            _ = try scheduler.submit(SyncJob(id: "long", options: options) { _ in })
            Issue.record("the job was accepted")
        } catch {
            guard case .invalidJob(let refusal) = error else { throw error }
            #expect(refusal.field == test.field)
            #expect(refusal.reason.contains("at most"))
        }
        #expect(scheduler.job(id: "queued") != nil)
        #expect(queued.state == .waiting(unmet: .network, conditions: []))
        // The longest accepted: `.seconds(Int64.max)` itself.
        var longest = SyncJobOptions(requires: .network)
        longest.delay = .seconds(Int64.max)
        longest.runTimeout = .seconds(Int64.max)
        _ = try scheduler.submit(SyncJob(id: "longest", options: longest) { _ in })
    }

    /// A calendar window of `.seconds(Int64.max)` (an endless window) was accepted, but when a run
    /// outlasted the next occurrence, the plan after it added the window's seconds to that occurrence in
    /// an `Int64` and trapped. Now the occurrence that passed during the run runs in its endless window.
    @Test("an endless calendar window: an occurrence passed during a run runs after it")
    func endlessCalendarWindow() async throws {
        let clock = ManualClock()
        let start = CalendarOccurrenceTests.utc("2026-01-10T00:00:00Z")
        let wall = ManualSyncWallClock(following: clock, start: start, timeZone: TimeZone(identifier: "UTC")!)
        let manual = ManualSyncEnvironment(connectivity: .connected(via: .wiredEthernet), clock: clock)
        let scheduler = SyncScheduler(environment: manual.environment, clock: clock, wallClock: wall)
        var options = SyncJobOptions(requires: .network)
        options.calendar = .hourly(minute: 0, window: .seconds(Int64.max))
        let started = AsyncStream.makeStream(of: Int.self)
        let release = AsyncStream.makeStream(of: Void.self)
        let handle = try scheduler.submit(
            SyncJob(id: "hourly", options: options) { context in
                started.continuation.yield(context.attempt)
                // Each run waits for a release (or its cancellation).
                for await _ in release.stream { break }
            })
        var starts = started.stream.makeAsyncIterator()
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(3_600))
        _ = await starts.next()
        // The 02:00 occurrence passes while the 01:00 run still runs.
        clock.advance(by: .seconds(5_400))
        release.continuation.yield()
        #expect(await starts.next() != nil)
        handle.cancel()
        #expect(try await handle.outcome() == .cancelled)
    }

    /// A timeout or grace period of `Duration(attoseconds: .max)` was added to the clock's reading and
    /// trapped; it now waits as long as `.seconds(Int64.max)`.
    @Test("waitUntil and shutdown take a timeout beyond .seconds(Int64.max)")
    func waitAndShutdownBeyondTheLongest() async throws {
        let clock = ManualClock()
        // Past the clock's origin, as every real clock is: the sums overflow only then.
        clock.advance(by: .seconds(1))
        let manual = ManualSyncEnvironment(connectivity: .disconnected, clock: clock)
        let waiter = Task { _ = try await manual.environment.waitUntil(.network, timeout: Self.beyond) }
        await clock.waitForSleepers(1)
        manual.setConnectivity(.connected(via: .wiredEthernet))
        try await waiter.value
        let scheduler = SyncScheduler(environment: manual.environment, clock: clock)
        let release = AsyncStream.makeStream(of: Void.self)
        let started = AsyncStream.makeStream(of: Void.self)
        let running = try scheduler.submit(
            SyncJob(requires: .network) { _ in
                started.continuation.yield()
                for await _ in release.stream { break }
            })
        for await _ in started.stream { break }
        clock.advance(by: .seconds(1))
        let shutdown = Task { await scheduler.shutdown(gracePeriod: Self.beyond) }
        await clock.waitForSleepers(1)
        release.continuation.yield()
        await shutdown.value
        #expect(try await running.outcome() == .succeeded)
    }
}
