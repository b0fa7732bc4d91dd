import Foundation
import SyncGateTesting
import Synchronization
import Testing

@testable import SyncGateCore
@testable import SyncGateDurable

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

/// A store whose `attemptStarted` records are slow: each one is written only after the handler of its
/// attempt began, or after `patience` has passed, so a handler that does not wait for its start record
/// sees the journal without it.
///
/// The patience is a span of time, not a count of yields: the writing thread is one of Swift's few
/// cooperative threads, and under load each `sched_yield` can give the processor away for a whole time
/// slice, so a count of yields held that thread for up to a minute and stalled every other test.
final class SlowStartStore: JobStore {
    let inner: FileJobStore
    let handlersBegun = Atomic<Int>(0)
    static let patience = Duration.milliseconds(20)

    init(_ inner: FileJobStore) {
        self.inner = inner
    }

    func load() throws -> JobStoreContents {
        try inner.load()
    }

    func append(_ record: JobRecord) throws {
        if case .attemptStarted(_, let attempt) = record {
            // A window in which a handler that ran too early would begin; the correct path waits it out.
            let end = ContinuousClock.now + Self.patience
            while handlersBegun.load(ordering: .acquiring) < attempt && ContinuousClock.now < end {
                sched_yield()
            }
        }
        try inner.append(record)
    }
}

/// Durability as a layer on the scheduler: its journal is written from the scheduler's ordered event
/// hook, never under the scheduler's lock.
@Suite("Durable layer", .timeLimit(.minutes(2)))
struct DurableLayerTests {
    let directory = TemporaryDirectory()

    struct Failure: Error {}

    /// A durable layer on a scheduler whose environment is connected, with its store wrapped by `wrap`.
    func connectedLayer<Store: JobStore>(
        _ wrap: (FileJobStore) -> Store
    ) throws -> (ManualClock, SyncScheduler, Store, DurableScheduler) {
        let clock = ManualClock()
        let manual = ManualSyncEnvironment(connectivity: .connected(via: .wifi), clock: clock)
        let scheduler = SyncScheduler(environment: manual.environment, clock: clock)
        let store = wrap(try FileJobStore(directory: directory.path))
        return (clock, scheduler, store, DurableScheduler(scheduler: scheduler, store: store))
    }

    @Test("no journal write and no event hook runs under the scheduler's lock, through a job's whole life")
    func noStoreCallUnderTheLock() async throws {
        let (clock, scheduler, store, durable) = try connectedLayer(ProbingStore.init)
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

    @Test("a handler runs only once its attempt's start is in the journal, so a crash in it is never missed")
    func handlerRunsAfterItsStartRecord() async throws {
        let (clock, scheduler, store, durable) = try connectedLayer(SlowStartStore.init)
        let seen = LockedState<[String]>([])
        try durable.register("work", payload: Int.self) { _, context in
            let stored = try store.load().jobs.first { $0.id == context.jobID }
            let marked = stored?.isRunning == true && stored?.lastStartedAttempt == context.attempt
            seen.withLock { $0.append("attempt \(context.attempt): \(marked ? "recorded" : "not recorded")") }
            store.handlersBegun.add(1, ordering: .releasing)
            if context.attempt == 1 { throw Failure() }
        }
        try durable.restoreJobs()
        let handle = try durable.submit(
            DurableJob(id: "one", kind: "work", payload: 1, retry: .fixed(delay: .seconds(1), maxAttempts: 2)))
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        #expect(try await handle.outcome().state == .succeeded)
        #expect(seen.withLock { $0 } == ["attempt 1: recorded", "attempt 2: recorded"])
        await scheduler.shutdown(gracePeriod: .zero)
    }
}
