import Foundation
import SyncGateTesting
import Testing

@testable import SyncGateCore
@testable import SyncGateDurable

/// A store that logs its appends and syncs, in order.
final class OrderLoggingStore: JobStore {
    let inner: FileJobStore
    let log = LockedState<[String]>([])

    init(_ inner: FileJobStore) {
        self.inner = inner
    }

    func load() throws -> JobStoreContents {
        try inner.load()
    }

    func append(_ record: JobRecord) throws {
        try inner.append(record)
        switch record {
        case .dependencyEnded(let sequence, let result):
            log.withLock { $0.append("\(sequence) told \(result.id) ended") }
        case .resolved(let sequence, _): log.withLock { $0.append("\(sequence) resolved") }
        default: break
        }
    }

    func sync() throws {
        try inner.sync()
        log.withLock { $0.append("sync") }
    }
}

/// A job's resolution leaves the store only once what its dependents were told (its output) is durable:
/// the records become durable in any order when the machine loses power, and a restore that kept the
/// resolution without them left the dependent waiting, forever, on a job that was gone.
@Suite("Durable dependency records", .timeLimit(.minutes(1)))
struct DurableDependencySyncTests {
    let directory = TemporaryDirectory()

    @Test("the dependents' records are synced before the resolution of the job they depend on")
    func dependentsRecordsAreDurableFirst() async throws {
        let scheduler = SyncScheduler(
            environment: ManualSyncEnvironment(connectivity: .connected(via: .wifi)).environment, clock: ManualClock())
        let store = OrderLoggingStore(try FileJobStore(directory: directory.path))
        let durable = DurableScheduler(scheduler: scheduler, store: store, retryClock: ManualClock())
        try durable.register("work", payload: Int.self) { _, _ in }
        try durable.restoreJobs()
        let release = AsyncStream.makeStream(of: Void.self)
        try durable.register("gated", payload: Int.self) { _, _ in
            for await _ in release.stream { break }
        }
        let first = try durable.submit(DurableJob(id: "a", kind: "gated", payload: 1, requires: []))
        let dependent = try durable.submit(
            DurableJob(id: "b", kind: "work", payload: 2, options: SyncJobOptions(requires: [], dependsOn: ["a"])))
        release.continuation.yield()
        #expect(try await first.outcome().state == .succeeded)
        #expect(try await dependent.outcome().state == .succeeded)
        let log = store.log.withLock { $0 }
        let told = try #require(log.firstIndex { $0.hasSuffix("told a ended") })
        let resolved = try #require(log.firstIndex(of: "1 resolved"))
        #expect(log[told..<resolved].contains("sync"), "\(log)")
        await scheduler.shutdown(gracePeriod: .zero)
    }
}
