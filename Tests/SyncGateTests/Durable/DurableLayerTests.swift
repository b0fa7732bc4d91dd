import Foundation
import SyncGateTesting
import Testing

@testable import SyncGate

/// A store that notes, for every call, whether the calling thread held a scheduler's lock.
final class ProbingStore: JobStore {
    let inner: FileJobStore
    let calls = LockedState<[(record: JobRecord, underSchedulerLock: Bool)]>([])

    init(_ inner: FileJobStore) {
        self.inner = inner
    }

    func load() throws -> JobStoreContents {
        try inner.load()
    }

    func append(_ record: JobRecord) throws {
        let held = SchedulerLockProbe.isHeld
        calls.withLock { $0.append((record, held)) }
        try inner.append(record)
    }
}

/// Durability as a layer on the scheduler: its journal is written from the scheduler's ordered event
/// hook, never under the scheduler's lock.
@Suite("Durable layer", .timeLimit(.minutes(1)))
struct DurableLayerTests {
    let directory = TemporaryDirectory()

    struct Failure: Error {}

    @Test("no journal write and no event hook runs under the scheduler's lock, through a job's whole life")
    func noStoreCallUnderTheLock() async throws {
        let clock = ManualClock()
        let manual = ManualSyncEnvironment(connectivity: .connected(via: .wifi), clock: clock)
        let scheduler = SyncScheduler(environment: manual.environment, clock: clock)
        let store = ProbingStore(try FileJobStore(directory: directory.path))
        let durable = DurableScheduler(scheduler: scheduler, store: store)
        let hookCalls = LockedState<[(sequence: UInt64, underSchedulerLock: Bool)]>([])
        let token = scheduler.schedulerCore.addEventHook { delivery in
            let held = SchedulerLockProbe.isHeld
            hookCalls.withLock { $0.append((delivery.sequence, held)) }
        }
        defer { scheduler.schedulerCore.removeEventHook(token) }
        try durable.register("work", payload: Int.self) { number, context in
            if number == 2 && context.attempt == 1 { throw Failure() }
        }
        try durable.restoreJobs()

        let succeeds = try durable.submit(DurableJob(id: "one", kind: "work", payload: 1, requires: []))
        let retries = try durable.submit(
            DurableJob(
                id: "two", kind: "work", payload: 2, requires: [], retry: .fixed(delay: .seconds(1), maxAttempts: 2)))
        let cancelled = try durable.submit(
            DurableJob(id: "three", kind: "work", payload: 3, conditions: ["never-held"]))
        let keptAtShutdown = try durable.submit(
            DurableJob(id: "four", kind: "work", payload: 4, conditions: ["never-held"]))
        #expect(try await succeeds.outcome().state == .succeeded)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        #expect(try await retries.outcome().state == .succeeded)
        cancelled.cancel()
        #expect(try await cancelled.outcome().state == .cancelled)
        await scheduler.shutdown(gracePeriod: .zero)
        #expect(try await keptAtShutdown.outcome().state == .cancelled)

        let calls = store.calls.withLock { $0 }
        #expect(calls.count == 11)
        #expect(calls.filter(\.underSchedulerLock).map { "\($0.record)" } == [])
        let hooks = hookCalls.withLock { $0 }
        #expect(hooks.filter(\.underSchedulerLock).map(\.sequence) == [])
        #expect(hooks.map(\.sequence) == Array(1...UInt64(hooks.count)))
        #expect(try store.load().jobs.map(\.id) == ["four"])
    }

    @Test("the durable scheduler's submit and the scheduler's submit have one shape: synchronous, typed throws")
    func sameCallShape() throws {
        let manual = ManualSyncEnvironment()
        let scheduler = SyncScheduler(environment: manual.environment)
        let durable = DurableScheduler(scheduler: scheduler, store: try FileJobStore(directory: directory.path))
        try durable.register("work", payload: Int.self) { _, _ in }
        try durable.restoreJobs()
        let plain: (SyncJob) throws(SyncSchedulerError) -> SyncJobHandle = scheduler.submit
        let stored: (DurableJob<Int>) throws(DurableJobError) -> SyncJobHandle = durable.submit
        #expect(try plain(SyncJob(id: "a") { _ in }).id == "a")
        #expect(try stored(DurableJob(id: "b", kind: "work", payload: 1)).id == "b")
        scheduler.cancelAll()
    }
}
