import Foundation
import SyncGateTesting
import Testing

@testable import SyncGateCore
@testable import SyncGateDurable

/// A store that refuses `attemptStarted` records while asked to, and logs, in one list with the handlers
/// of the test, every record it took.
final class StartRefusingStore: JobStore {
    let inner: FileJobStore
    let refusing = LockedState(true)
    /// What happened, in order: `stored <record>` for each record taken, and what the test's handlers add.
    let log = LockedState<[String]>([])

    init(_ inner: FileJobStore) {
        self.inner = inner
    }

    func load() throws -> JobStoreContents {
        try inner.load()
    }

    func append(_ record: JobRecord) throws {
        if case .attemptStarted = record, refusing.withLock({ $0 }) {
            throw JobStoreError(.ioFailure, path: inner.journalPath, cause: "write failed: injected")
        }
        try inner.append(record)
        if case .attemptStarted(_, let attempt) = record {
            log.withLock { $0.append("stored attempt \(attempt) started") }
        }
    }
}

/// A handler runs only once the journal holds the start of its attempt: otherwise a process that dies
/// while it runs restores the job as never started (and a job past its start deadline as expired, its
/// work dropped). When the store cannot take the record (a full disk), the attempt waits for it.
@Suite("Durable start records", .timeLimit(.minutes(1)))
struct DurableStartRecordTests {
    let directory = TemporaryDirectory()

    func layer() throws -> (SyncScheduler, StartRefusingStore, DurableScheduler) {
        let manual = ManualSyncEnvironment(connectivity: .connected(via: .wifi), clock: ManualClock())
        let scheduler = SyncScheduler(environment: manual.environment, clock: ManualClock())
        let store = StartRefusingStore(try FileJobStore(directory: directory.path))
        let durable = DurableScheduler(scheduler: scheduler, store: store, retryClock: ManualClock())
        try durable.register("work", payload: Int.self) { _, _ in
            store.log.withLock { $0.append("handler ran") }
        }
        try durable.restoreJobs()
        return (scheduler, store, durable)
    }

    /// The start record failed; the writer's retry writes it later, and only then does the handler run.
    @Test("a start record that failed is written again before the handler runs")
    func handlerWaitsForItsStartRecord() async throws {
        let (scheduler, store, durable) = try layer()
        var failures = durable.writeFailures.makeAsyncIterator()
        let handle = try durable.submit(DurableJob(id: "one", kind: "work", payload: 1, requires: []))
        let failure = await failures.next()
        #expect(failure?.record == "attempt 1 started")
        store.refusing.withLock { $0 = false }
        try durable.retryPendingWrites()
        #expect(try await handle.outcome().state == .succeeded)
        #expect(store.log.withLock { $0 } == ["stored attempt 1 started", "handler ran"])
        await scheduler.shutdown(gracePeriod: .zero)
    }

    /// Cancelled while it waits for its start record, the attempt ends without running the handler (it
    /// ran it, with the start never recorded).
    @Test("an attempt cancelled while its start record is not written does not run its handler")
    func cancelledWhileWaiting() async throws {
        let (scheduler, store, durable) = try layer()
        var failures = durable.writeFailures.makeAsyncIterator()
        let handle = try durable.submit(DurableJob(id: "one", kind: "work", payload: 1, requires: []))
        _ = await failures.next()
        handle.cancel()
        #expect(try await handle.outcome().state == .cancelled)
        #expect(store.log.withLock { $0 }.isEmpty)
        await scheduler.shutdown(gracePeriod: .zero)
    }
}
