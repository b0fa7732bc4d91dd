import Foundation
import SyncGate
import SyncGateTesting
import Testing

@testable import SyncGateDurable

/// ``DurableScheduler/discardKeptJob(id:)``: a stored job that restore kept leaves the store as a
/// cancelled job, for good; restarts are a closed store and a new scheduler and store on the same
/// directory. ManualClock, nothing sleeps.
@Suite("Durable kept-job discard", .timeLimit(.minutes(1)))
struct DurableKeptDiscardTests {
    let directory = TemporaryDirectory()
    let clock = ManualClock()
    let wall = ManualWallClock()
    /// Paces the durable layer's write retries.
    let retryClock = ManualClock()

    struct Run {
        let scheduler: SyncScheduler
        let durable: DurableScheduler
        let store: FileJobStore
    }

    /// Starts a "process" with the given kinds registered (handlers that succeed) and restores.
    func start(
        kinds: Set<String>, connected: Bool = false, wrap: (FileJobStore) -> any JobStore = { $0 }
    ) throws -> (Run, DurableRestoreReport) {
        let manual = ManualSyncEnvironment(
            connectivity: connected ? .connected(via: .wifi) : .disconnected, clock: clock)
        let scheduler = try SyncScheduler(
            environment: manual.environment, configuration: .init(randomSource: { 0.5 }), clock: clock)
        let store = try FileJobStore(directory: directory.path)
        let durable = DurableScheduler(
            scheduler: scheduler, store: wrap(store), wallClock: wall.function, retryClock: retryClock)
        if kinds.contains("upload") {
            try durable.register("upload", payload: UploadRequest.self) { _, _ in }
        }
        if kinds.contains("other") {
            try durable.register("other", payload: OtherRequest.self) { _, _ in }
        }
        let report = try durable.restoreJobs()
        return (Run(scheduler: scheduler, durable: durable, store: store), report)
    }

    /// Stores `up-1` (kind `upload`, unique key `album`) and restarts without that kind: it is kept.
    func keptUpload(kinds: Set<String> = ["other"], wrap: (FileJobStore) -> any JobStore = { $0 }) throws -> Run {
        let (first, _) = try start(kinds: ["upload"])
        try first.durable.submit(
            DurableJob(id: "up-1", kind: "upload", payload: UploadRequest(photo: 1), uniqueKey: "album"))
        try first.store.close()
        let (second, report) = try start(kinds: kinds, wrap: wrap)
        #expect(report.kept.map(\.id) == ["up-1"])
        return second
    }

    /// The records of the journal in file order.
    func journal() throws -> [JobRecord] {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: directory.journal))
        let version = try #require(JournalCodec.version(ofHeader: bytes))
        return bytes.withUnsafeBytes { JournalScan($0, path: "journal", version: version).records }
    }

    @Test("a discarded kept job leaves the store as cancelled: the snapshot and a restart no longer list it")
    func discardRemovesForGood() throws {
        let run = try keptUpload()
        let discarded = try run.durable.discardKeptJob(id: "up-1")
        #expect(discarded?.id == "up-1")
        #expect(discarded?.reason == .unknownKind)
        #expect(run.durable.snapshot().kept.isEmpty)
        #expect(try run.store.load().jobs.isEmpty)
        #expect(try journal().last == .resolved(sequence: 1, resolution: .cancelled))
        #expect(try run.durable.discardKeptJob(id: "up-1") == nil)
        try run.store.close()

        // Its kind is back: still nothing to restore.
        let (_, report) = try start(kinds: ["upload", "other"])
        #expect(report.restored.isEmpty)
        #expect(report.kept.isEmpty)
    }

    @Test("a discarded kept job's id and unique key are free for a new job")
    func discardFreesIDAndKey() throws {
        let run = try keptUpload()
        let job = DurableJob(id: "up-1", kind: "other", payload: OtherRequest(note: "new"), uniqueKey: "album")
        #expect(throws: DurableJobError.self) { try run.durable.submit(job) }
        var byKey = job
        byKey.id = "up-2"
        #expect(throws: DurableJobError.self) { try run.durable.submit(byKey) }

        try run.durable.discardKeptJob(id: "up-1")
        #expect(try run.durable.submit(job).id == "up-1")
        #expect(run.durable.snapshot().active == ["up-1"])
        try run.store.close()

        let (_, report) = try start(kinds: ["upload", "other"])
        #expect(report.restored.map(\.id) == ["up-1"])
        #expect(report.kept.isEmpty)
    }

    @Test("an id that no kept job has: nil, and nothing is written")
    func unknownIDDoesNothing() throws {
        let run = try keptUpload()
        let before = try Data(contentsOf: URL(fileURLWithPath: directory.journal))
        #expect(try run.durable.discardKeptJob(id: "nope") == nil)
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory.journal)) == before)
        #expect(run.durable.snapshot().kept.map(\.id) == ["up-1"])
    }

    @Test("a kept dependent learns that the discarded job was cancelled: the next restore fails it, naming it")
    func keptDependentLearnsCancellation() async throws {
        let (first, _) = try start(kinds: ["upload", "other"])
        try first.durable.submit(DurableJob(id: "a", kind: "upload", payload: UploadRequest(photo: 1)))
        var dependent = DurableJob(id: "b", kind: "other", payload: OtherRequest(note: "b"), requires: [])
        dependent.dependsOn = ["a"]
        try first.durable.submit(dependent)
        try first.store.close()

        // Without `upload`, a is kept; b's dependency is then unknown to the scheduler: b is kept too.
        let (second, report) = try start(kinds: ["other"])
        #expect(report.kept.map(\.id) == ["a", "b"])
        try second.durable.discardKeptJob(id: "a")
        #expect(second.durable.snapshot().kept.map(\.id) == ["b"])
        let records = try journal()
        let told = try #require(
            records.firstIndex(of: .dependencyEnded(sequence: 2, result: .init(id: "a", resolution: .cancelled))))
        let resolved = try #require(records.firstIndex(of: .resolved(sequence: 1, resolution: .cancelled)))
        #expect(told < resolved)
        try second.store.close()

        let (_, third) = try start(kinds: ["upload", "other"], connected: true)
        #expect(third.restored.map(\.id) == ["b"])
        let outcome = try await third.restored[0].outcome()
        #expect(outcome.state.isFailed)
        #expect("\(outcome)".contains("its dependency a did not succeed: cancelled"))
    }

    @Test("a store that refuses the record: the job stays kept, holding its id, the error is thrown, nothing retried")
    func failingStoreKeepsTheJob() throws {
        let flaky = LockedState<FlakyStore?>(nil)
        let run = try keptUpload { base in
            let store = FlakyStore(base)
            flaky.withLock { $0 = store }
            return store
        }
        let store = try #require(flaky.withLock { $0 })
        store.failsProgress.withLock { $0 = true }
        #expect {
            try run.durable.discardKeptJob(id: "up-1")
        } throws: { error in
            guard case DurableJobError.storeFailed(let failure) = error else { return false }
            return failure.code == .ioFailure && "\(failure)".contains("injected")
        }
        #expect(run.durable.snapshot().kept.map(\.id) == ["up-1"])
        #expect(run.durable.snapshot().pendingWrites == 0)
        #expect(run.durable.jobsWithPendingWrites().isEmpty)
        #expect(throws: DurableJobError.self) {
            try run.durable.submit(DurableJob(id: "up-1", kind: "other", payload: OtherRequest(note: "new")))
        }
        #expect(try run.store.load().jobs.map(\.id) == ["up-1"])

        store.failsProgress.withLock { $0 = false }
        #expect(try run.durable.discardKeptJob(id: "up-1")?.id == "up-1")
        #expect(run.durable.snapshot().kept.isEmpty)
        #expect(try run.store.load().jobs.isEmpty)
    }
}
