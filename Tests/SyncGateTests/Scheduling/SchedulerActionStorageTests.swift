import Testing

@testable import SyncGateCore

/// The state machine reuses the storage of an input's actions once the shell hands them back, so that a
/// critical section does not allocate and grow a new array for them every time.
@Suite("Scheduler action storage", .timeLimit(.minutes(1)))
struct SchedulerActionStorageTests {
    typealias Machine = SchedulerStateMachine<Int>

    static let online = SyncEnvironmentStatus(connectivity: .connected(via: .wifi), account: .available)

    static func base(_ actions: [Machine.Action]) -> UnsafeRawPointer? {
        actions.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }

    static func job(_ id: SyncJob.ID) -> SyncJob.Spec { SyncJob(id: id) { _ in }.spec }

    static func accepted(_ result: Machine.SubmitResult) -> (Machine.Key, [Machine.Action])? {
        if case .accepted(let key, let actions) = result { return (key, actions) }
        return nil
    }

    @Test("the next input's actions are appended into the storage of the recycled ones")
    func recycledStorageIsReused() throws {
        var machine = Machine(maxConcurrentJobs: 1, status: Self.online)
        let (key, first) = try #require(Self.accepted(machine.submit(Self.job("a"), payload: 1, now: .zero)))
        let storage = Self.base(first)
        let capacity = first.capacity
        #expect(first.count >= 2)
        machine.recycle(consume first)
        // The slot is taken: the second job waits, with fewer actions than the first job's start.
        let (_, second) = try #require(Self.accepted(machine.submit(Self.job("b"), payload: 2, now: .zero)))
        #expect(Self.base(second) == storage)
        #expect(second.capacity == capacity)
        machine.recycle(consume second)
        // The end of the first job starts the second: its resolution and the start share the storage.
        let ended = machine.attemptFinished(key, attempt: 1, result: .success(()), now: .zero) { 0 }
        #expect(ended.count >= 4)
        #expect(ended.capacity >= capacity)
        let endedStorage = Self.base(ended)
        if ended.capacity == capacity { #expect(endedStorage == storage) }
        machine.recycle(consume ended)
        let (_, third) = try #require(Self.accepted(machine.submit(Self.job("c"), payload: 3, now: .zero)))
        #expect(Self.base(third) == endedStorage)
    }

    @Test("storage past the limit is not kept")
    func largeStorageIsDropped() {
        var machine = Machine(maxConcurrentJobs: 1, status: Self.online)
        var large: [Machine.Action] = []
        large.reserveCapacity(Machine.recycledActionCapacity + 1)
        machine.recycle(large)
        let next = machine.cancelAll(now: .zero)
        #expect(next.capacity < Machine.recycledActionCapacity)
    }
}
