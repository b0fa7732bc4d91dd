import Foundation
import SyncGateTestSupport
import Testing

@Suite("ProcessSuiteTrait: suites that start processes take turns, each test on a thread of its own", .startsProcesses)
struct ProcessSuiteTraitTests {
    @Test("a test of the suite runs on a thread of its own, inside the suite's turn")
    func testRunsInTurnOnItsThread() async {
        #expect(OwnThreadTraitTests.threadName().hasPrefix("proc-"))
        #expect(ProcessSuiteTrait.isInTurn)
        await Task.yield()
        #expect(OwnThreadTraitTests.threadName().hasPrefix("proc-"))
    }

    @Suite("a nested suite runs within its parent's turn")
    struct Nested {
        @Test("the nested suite's test holds the parent's turn, on a thread of its own")
        func nestedTest() {
            #expect(ProcessSuiteTrait.isInTurn)
            #expect(OwnThreadTraitTests.threadName().hasPrefix("proc-"))
        }
    }
}

@Suite("SuiteSlots: a counting semaphore that suspends, never blocks", .timeLimit(.minutes(1)))
struct SuiteSlotsTests {
    @Test("a test of a suite without the trait holds no turn")
    func outsideTheTrait() {
        #expect(!ProcessSuiteTrait.isInTurn)
    }

    /// Yields until `slots` has `count` waiters (the waiting tasks have run up to their suspension).
    private func waitForWaiters(_ count: Int, on slots: SuiteSlots) async {
        while slots.waiting < count { await Task.yield() }
    }

    @Test("beyond its capacity an acquirer waits until a slot is released", arguments: [1, 2, 3])
    func capacityBounds(capacity: Int) async {
        let slots = SuiteSlots(capacity: capacity)
        for _ in 0..<capacity { await slots.acquire() }
        #expect(slots.waiting == 0)
        let late = Task { await slots.acquire() }
        await waitForWaiters(1, on: slots)
        slots.release()
        await late.value
        #expect(slots.waiting == 0)
    }

    @Test("waiters get the slot in the order they came")
    func firstComeFirstServed() async {
        let slots = SuiteSlots(capacity: 1)
        await slots.acquire()
        let order = Order()
        var waiters: [Task<Void, Never>] = []
        for number in 0..<4 {
            waiters.append(
                Task {
                    await slots.acquire()
                    order.append(number)
                    slots.release()
                })
            await waitForWaiters(number + 1, on: slots)
        }
        slots.release()
        for waiter in waiters { await waiter.value }
        #expect(order.numbers == [0, 1, 2, 3])
        #expect(slots.waiting == 0)
        // The slot is free again: one more acquire does not wait.
        await slots.acquire()
    }

    /// The order in which waiters got their slot.
    private final class Order: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [Int] = []
        func append(_ number: Int) { lock.withLock { stored.append(number) } }
        var numbers: [Int] { lock.withLock { stored } }
    }
}
