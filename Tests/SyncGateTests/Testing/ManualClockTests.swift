import SyncGate
import Testing

@testable import SyncGateTesting

@Suite("ManualClock", .timeLimit(.minutes(3)))
struct ManualClockTests {
    @Test("sleepers wake in deadline order when the clock reaches them")
    func deadlineOrder() async throws {
        let clock = ManualClock()
        let woken = StatusBroadcast<[Int]>([])
        for (index, seconds) in [3, 1, 2].enumerated() {
            Task {
                try await clock.sleep(until: clock.now.advanced(by: .seconds(seconds)))
                woken.update { $0.append(index) }
            }
        }
        await clock.waitForSleepers(3)
        #expect(clock.sleeperDeadlines.map(\.offset) == [.seconds(1), .seconds(2), .seconds(3)])
        clock.advance(by: .milliseconds(1_500))
        for await list in woken.stream() where list == [1] { break }
        #expect(clock.sleeperCount == 2)
        clock.advance(to: ManualClock.Instant(offset: .seconds(3)))
        for await list in woken.stream() where list.count == 3 {
            #expect(Set(list) == [0, 1, 2])
            break
        }
        #expect(clock.sleeperCount == 0)
        #expect(clock.now.offset == .seconds(3))
    }

    /// `cancel()` takes a counted sleeper out before it returns, however soon after its registration it
    /// comes: a test that cancels a timer and then reads `sleeperCount` must not see it (once seen as 1 in
    /// a sanitizer run of `SyncEnvironment.waitUntil`'s test, whose timeout timer is cancelled that way).
    @Test("a sleeper cancelled as soon as it counts no longer counts when cancel() returns")
    func cancelledAtOnceNoLongerCounts() async {
        let clock = ManualClock()
        for _ in 0..<500 {
            let task = Task { try await clock.sleep(for: .seconds(10)) }
            await clock.waitForSleepers(1)
            task.cancel()
            #expect(clock.sleeperCount == 0)
            _ = try? await task.value
        }
    }

    @Test("a cancelled sleeper is removed and throws CancellationError")
    func cancellation() async {
        let clock = ManualClock()
        let task = Task { try await clock.sleep(for: .seconds(10)) }
        await clock.waitForSleepers(1)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test("a sleeper cancelled before it sleeps throws at once")
    func cancelledBeforeSleeping() async {
        let clock = ManualClock()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(for: .seconds(1))
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test("a deadline already reached returns at once")
    func pastDeadline() async throws {
        let clock = ManualClock()
        clock.advance(by: .seconds(5))
        try await clock.sleep(until: ManualClock.Instant(offset: .seconds(4)))
        try await clock.sleep(for: .zero)
        #expect(clock.sleeperCount == 0)
    }

    @Test("advanceToNextDeadline wakes the earliest sleeper only")
    func nextDeadline() async throws {
        let clock = ManualClock()
        #expect(!clock.advanceToNextDeadline())
        let first = Task { try await clock.sleep(for: .seconds(2)) }
        let second = Task { try await clock.sleep(for: .seconds(5)) }
        await clock.waitForSleepers(2)
        #expect(clock.advanceToNextDeadline())
        try await first.value
        #expect(clock.now.offset == .seconds(2))
        #expect(clock.sleeperCount == 1)
        second.cancel()
        _ = try? await second.value
    }

    @Test("waitForSleeper(until:) waits for that deadline, whatever else sleeps")
    func specificSleeper() async throws {
        let clock = ManualClock()
        let other = Task { try await clock.sleep(for: .seconds(5)) }
        await clock.waitForSleepers(1)
        let retry = ManualClock.Instant(offset: .seconds(30))
        let waiter = Task {
            await clock.waitForSleeper(until: retry)
            return clock.sleeperDeadlines
        }
        let wanted = Task { try await clock.sleep(until: retry) }
        #expect(await waiter.value == [ManualClock.Instant(offset: .seconds(5)), retry])
        clock.advance(to: retry)
        try await other.value
        try await wanted.value
    }

    /// A test that waits for a timer the code under test never arms must fail at its time limit (which
    /// cancels it), not hang the whole run.
    @Test("a wait for sleepers ends when its task is cancelled, before or during the wait")
    func waitEndsOnCancellation() async {
        let clock = ManualClock()
        let waiting = Task { await clock.waitForSleepers(1) }
        let waitingForDeadline = Task { await clock.waitForSleeper(until: ManualClock.Instant(offset: .seconds(9))) }
        let cancelledFirst = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            await clock.waitForSleepers(5)
        }
        // Cancel the first two while they are suspended (the third saw its cancellation before it waited).
        while clock.suspendedWaitCount < 2 { await Task.yield() }
        waiting.cancel()
        waitingForDeadline.cancel()
        await waiting.value
        await waitingForDeadline.value
        await cancelledFirst.value
        #expect(clock.sleeperCount == 0)
        #expect(clock.suspendedWaitCount == 0)
        // The cancelled waits are gone: a sleeper that satisfies both must not resume them again (a second
        // resume of their continuations would crash).
        let sleeper = Task { try await clock.sleep(until: ManualClock.Instant(offset: .seconds(9))) }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(9))
        try? await sleeper.value
    }

    @Test("instants measure durations")
    func instants() {
        let start = ManualClock.Instant(offset: .seconds(1))
        let later = start.advanced(by: .milliseconds(500))
        #expect(start.duration(to: later) == .milliseconds(500))
        #expect(start < later)
        #expect(ManualClock().minimumResolution == .zero)
    }
}
