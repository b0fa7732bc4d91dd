import Foundation
import SyncGate
import SyncGateTesting
import Testing

@testable import SyncGateDurable

/// A payload of another kind than `upload`.
struct OtherRequest: Codable, Sendable, Equatable {
    var note: String
}

/// A store that passes records to a ``FileJobStore`` and fails the appends a test asks it to fail.
final class FlakyStore: JobStore {
    let base: FileJobStore
    /// Whether appends of records other than submissions fail.
    let failsProgress = LockedState(false)

    init(_ base: FileJobStore) {
        self.base = base
    }

    func load() throws -> JobStoreContents {
        try base.load()
    }

    func append(_ record: JobRecord) throws {
        if case .submitted = record {
        } else if failsProgress.withLock({ $0 }) {
            throw JobStoreError(.ioFailure, path: base.journalPath, cause: "write failed: injected")
        }
        try base.append(record)
    }
}

/// The faults found by attacking the durable store, each through the public API, on the real file
/// system; restarts are a closed store and a new scheduler and store on the same directory.
@Suite("Durable faults", .timeLimit(.minutes(1)))
struct DurableFaultTests {
    let directory = TemporaryDirectory()
    let clock = ManualClock()
    let wall = ManualWallClock()
    /// Paces the durable layer's write retries.
    let retryClock = ManualClock()

    struct Run {
        let manual: ManualSyncEnvironment
        let scheduler: SyncScheduler
        let durable: DurableScheduler
        let store: FileJobStore
    }

    /// Starts a "process" with the given kinds registered (handlers that succeed) and restores.
    func start(kinds: Set<String>, store: FileJobStore? = nil, wrap: (FileJobStore) -> any JobStore = { $0 })
        throws -> (Run, DurableRestoreReport)
    {
        let manual = ManualSyncEnvironment(connectivity: .disconnected, clock: clock)
        let scheduler = try SyncScheduler(
            environment: manual.environment, configuration: .init(randomSource: { 0.5 }), clock: clock)
        let store = try store ?? FileJobStore(directory: directory.path)
        let durable = DurableScheduler(
            scheduler: scheduler, store: wrap(store), wallClock: wall.function, retryClock: retryClock)
        if kinds.contains("upload") {
            try durable.register("upload", payload: UploadRequest.self) { _, _ in }
        }
        if kinds.contains("other") {
            try durable.register("other", payload: OtherRequest.self) { _, _ in }
        }
        let report = try durable.restoreJobs()
        return (Run(manual: manual, scheduler: scheduler, durable: durable, store: store), report)
    }

    // MARK: - Far-future instants

    static let tooFar = Duration.seconds(9_300_000_000)

    @Test(
        "a duration the journal cannot hold as an instant is refused at submit, naming the field",
        arguments: [
            ("delay", SyncJobOptions(delay: tooFar)),
            ("startDeadline", SyncJobOptions(startDeadline: tooFar)),
            ("runTimeout", SyncJobOptions(runTimeout: tooFar)),
            ("retry.delay", SyncJobOptions(retry: .fixed(delay: tooFar, maxAttempts: 2))),
            ("retry.maxDelay", SyncJobOptions(retry: .exponential(initial: .seconds(1), maxDelay: tooFar))),
        ])
    func farFutureRefused(field: String, options: SyncJobOptions) throws {
        let (run, _) = try start(kinds: ["upload"])
        var options = options
        options.requirements = []
        let error = #expect(throws: DurableJobError.self) {
            try run.durable.submit(
                DurableJob(id: "far", kind: "upload", payload: UploadRequest(photo: 1), options: options))
        }
        #expect("\(error.map { "\($0)" } ?? "")".contains(field))
        #expect("\(error.map { "\($0)" } ?? "")".contains("at most"))
        #expect(try run.store.load().jobs.isEmpty)
        #expect(run.scheduler.snapshot().jobs.isEmpty)
    }

    @Test(
        "a far-future or non-finite instant already on disk restores without trapping",
        arguments: [
            9.3e9, 1e300, Double.infinity, -Double.infinity, Double.nan,
        ])
    func farFutureOnDiskRestores(seconds: Double) throws {
        let store = try FileJobStore(directory: directory.path)
        for sequence: UInt64 in 1...2 {
            var job = StoredJob(
                sequence: sequence, id: "far-\(sequence)", kind: "upload", payload: Data("{\"photo\":1}".utf8),
                submittedAt: wall.now,
                options: SyncJobOptions(
                    requires: [], delay: Self.tooFar, startDeadline: Self.tooFar, runTimeout: Self.tooFar))
            // The first waits for a retry at the instant, the second for its delay and deadline.
            if sequence == 1 { job.retryAt = wall.now.addingTimeInterval(seconds) }
            try store.append(.submitted(job))
        }
        try store.close()
        let (run, report) = try start(kinds: ["upload"])
        #expect(report.restored.count + report.kept.count + report.expired.count == 2)
        run.scheduler.cancelAll()
    }

    // MARK: - Payload size

    @Test("a payload over the limit is refused at submit naming its size and the limit; the store is unchanged")
    func payloadOverLimit() throws {
        let (run, _) = try start(kinds: ["other"])
        let big = OtherRequest(note: String(repeating: "a", count: DurableScheduler.maximumPayloadSize))
        let error = #expect(throws: DurableJobError.self) {
            try run.durable.submit(DurableJob(id: "big", kind: "other", payload: big, requires: []))
        }
        let message = error.map { "\($0)" } ?? ""
        #expect(message.contains("\(DurableScheduler.maximumPayloadSize + 11) bytes"), "\(message)")
        #expect(message.contains("limit of \(DurableScheduler.maximumPayloadSize) bytes"), "\(message)")
        #expect(try run.store.load().jobs.isEmpty)
        #expect(run.store.statistics.bytes == 8)
    }

    @Test("the store refuses a record its reader would refuse, and is unchanged")
    func storeRefusesOversizedRecord() throws {
        let store = try FileJobStore(directory: directory.path)
        try store.append(.submitted(plainJob(1)))
        let before = store.statistics
        var job = plainJob(2)
        job.payload = Data(count: DurableScheduler.maximumPayloadSize)
        job.options.tags = [String(repeating: "t", count: 2 << 20)]
        #expect(throws: JobStoreError.self) { try store.append(.submitted(job)) }
        #expect(store.statistics == before)
        try store.close()
        let reopened = try FileJobStore(directory: directory.path)
        #expect(try reopened.load().jobs.map(\.id) == ["job-1"])
        #expect(try reopened.load().issues.isEmpty)
    }

    // MARK: - Ids and unique keys of kept jobs

    @Test("a kept job holds its id: a new job with it is refused, and a second record with it never runs twice")
    func keptJobHoldsItsID() throws {
        let (first, _) = try start(kinds: ["other"])
        try first.durable.submit(DurableJob(id: "upload-42", kind: "other", payload: OtherRequest(note: "x")))
        try first.store.close()

        let (second, report) = try start(kinds: ["upload"])
        #expect(report.kept.map(\.id) == ["upload-42"])
        let error = #expect(throws: DurableJobError.self) {
            try second.durable.submit(DurableJob(id: "upload-42", kind: "upload", payload: UploadRequest(photo: 42)))
        }
        #expect("\(error.map { "\($0)" } ?? "")".contains("upload-42"))
        #expect(try second.store.load().jobs.count == 1)
    }

    @Test("of two stored jobs with one id, the first runs and leaves the store; the second is kept and reported")
    func duplicateIDsInJournal() async throws {
        let store = try FileJobStore(directory: directory.path)
        for sequence: UInt64 in 1...2 {
            var job = plainJob(sequence, id: "upload-42")
            job.kind = "upload"
            job.payload = Data("{\"photo\":42}".utf8)
            job.options.requirements = []
            try store.append(.submitted(job))
        }
        try store.close()
        let (run, report) = try start(kinds: ["upload"])
        #expect(report.restored.map(\.id) == ["upload-42"])
        #expect(report.kept.map(\.sequence) == [2])
        #expect(try await report.restored[0].outcome().state == .succeeded)
        #expect(try run.store.load().jobs.map(\.sequence) == [2])
    }

    @Test("a stored job whose id or unique key a kept job holds is kept too, not run beside it")
    func storedJobBehindKeptJob() throws {
        let store = try FileJobStore(directory: directory.path)
        var kept = plainJob(1, id: "x")
        kept.kind = "other"
        kept.options.uniqueKey = "K"
        try store.append(.submitted(kept))
        for (sequence, id) in [(UInt64(2), "x"), (3, "y")] {
            var job = plainJob(sequence, id: id)
            job.kind = "upload"
            job.payload = Data("{\"photo\":1}".utf8)
            job.options.uniqueKey = sequence == 3 ? "K" : nil
            try store.append(.submitted(job))
        }
        let (run, report) = try start(kinds: ["upload"], store: store)
        #expect(report.restored.isEmpty)
        #expect(report.kept.map(\.sequence) == [1, 2, 3])
        #expect(try run.store.load().jobs.count == 3)
    }

    @Test("a kept job holds its unique key: a new job with it is refused; a discard at restore is reported")
    func keptJobHoldsItsUniqueKey() throws {
        let (first, _) = try start(kinds: ["other"])
        try first.durable.submit(
            DurableJob(id: "k1", kind: "other", payload: OtherRequest(note: "x"), uniqueKey: "K"))
        try first.store.close()

        let (second, _) = try start(kinds: ["upload"])
        let error = #expect(throws: DurableJobError.self) {
            try second.durable.submit(
                DurableJob(id: "b", kind: "upload", payload: UploadRequest(photo: 1), uniqueKey: "K"))
        }
        #expect("\(error.map { "\($0)" } ?? "")".contains("\"K\""))
        #expect(try second.store.load().jobs.map(\.id) == ["k1"])
        try second.store.close()

        // A journal that already holds two jobs with one key: the later one is discarded, and reported.
        let store = try FileJobStore(directory: directory.path)
        var late = plainJob(5, id: "b")
        late.kind = "upload"
        late.payload = Data("{\"photo\":1}".utf8)
        late.options.uniqueKey = "K"
        try store.append(.submitted(late))
        let (third, report) = try start(kinds: ["upload", "other"], store: store)
        #expect(report.restored.map(\.id) == ["k1"])
        #expect(report.discarded == ["b"])
        #expect(try third.store.load().jobs.map(\.id) == ["k1"])
        third.scheduler.cancelAll()
    }

    // MARK: - Failed resolution writes

    /// Submits job `c`, makes the store fail every record but submissions, cancels `c` (its resolution's
    /// write fails) and returns once the failure is reported, with that first failure.
    func failCancellation() async throws -> (Run, FlakyStore, DurableWriteFailure) {
        let (run, _) = try start(kinds: ["upload"]) { FlakyStore($0) }
        let flaky = try #require(run.durable.store as? FlakyStore)
        let failures = run.durable.writeFailures
        let handle = try run.durable.submit(DurableJob(id: "c", kind: "upload", payload: UploadRequest(photo: 1)))
        flaky.failsProgress.withLock { $0 = true }
        handle.cancel()
        var iterator = failures.makeAsyncIterator()
        return (run, flaky, try #require(await iterator.next()))
    }

    @Test("a failed resolution write is surfaced on the write-failure stream and written again later")
    func failedResolutionRetried() async throws {
        let (run, flaky, failure) = try await failCancellation()
        #expect(failure.jobID == "c")
        #expect(failure.description.contains("injected"))
        #expect(run.durable.snapshot().pendingWrites == 1)
        #expect(try run.store.load().jobs.map(\.id) == ["c"])
        flaky.failsProgress.withLock { $0 = false }
        try run.durable.retryPendingWrites()
        #expect(run.durable.snapshot().pendingWrites == 0)
        #expect(try run.store.load().jobs.isEmpty)
    }

    @Test("a failed write is written again by the retry clock, once a second until it reaches the store, reported once")
    func failedWriteRetriedOnTheRetryClock() async throws {
        let (run, flaky, failure) = try await failCancellation()
        #expect(failure.jobID == "c")
        // The first retry is due one second after the failure, on the retry clock only.
        let first = try #require(run.durable.scheduledWriteRetry)
        await retryClock.waitForSleeper(until: retryClock.now.advanced(by: .seconds(1)))
        retryClock.advance(by: .milliseconds(999))
        #expect(run.durable.snapshot().pendingWrites == 1)
        retryClock.advance(by: .milliseconds(1))
        await first.value
        // Still failing: the record stays pending, is not reported again, and the next retry is scheduled.
        #expect(run.durable.snapshot().pendingWrites == 1)
        #expect(run.durable.snapshot().writeErrors.count == 1)
        let second = try #require(run.durable.scheduledWriteRetry)
        await retryClock.waitForSleeper(until: retryClock.now.advanced(by: .seconds(1)))
        flaky.failsProgress.withLock { $0 = false }
        retryClock.advance(by: .seconds(1))
        await second.value
        #expect(run.durable.snapshot().pendingWrites == 0)
        #expect(run.durable.scheduledWriteRetry == nil)
        #expect(try run.store.load().jobs.isEmpty)
    }

    // MARK: - Lock

    @Test("a deleted lock file does not let a second store open the directory")
    func deletedLockFile() throws {
        let first = try FileJobStore(directory: directory.path)
        try FileManager.default.removeItem(atPath: directory.path + "/lock")
        let error = #expect(throws: JobStoreError.self) { _ = try FileJobStore(directory: directory.path) }
        #expect(error?.code == .locked)
        #expect(error?.path == directory.path)
        try first.close()
        _ = try FileJobStore(directory: directory.path)
    }

    // MARK: - Damaged header

    @Test("a damaged header is refused with an error telling how to salvage; salvage restores every intact job")
    func damagedHeaderSalvage() throws {
        let store = try FileJobStore(directory: directory.path)
        for sequence: UInt64 in 1...5 { try store.append(.submitted(plainJob(sequence))) }
        try store.append(.resolved(sequence: 2, resolution: .succeeded))
        try store.close()
        var bytes = try directory.bytes(of: directory.journal)
        bytes[3] ^= 0x40
        try directory.write(bytes, to: directory.journal)

        let error = #expect(throws: JobStoreError.self) { _ = try FileJobStore(directory: directory.path) }
        #expect(error?.code == .notAJournal)
        #expect("\(error.map { "\($0)" } ?? "")".contains("FileJobStore.salvage"))

        let target = TemporaryDirectory()
        let salvaged = try FileJobStore.salvage(journal: directory.journal, into: target.path)
        #expect(salvaged.jobs.map(\.id) == ["job-1", "job-3", "job-4", "job-5"])
        let recovered = try FileJobStore(directory: target.path)
        #expect(try recovered.load().jobs == salvaged.jobs)
        #expect(try directory.bytes(of: directory.journal) == bytes)
    }
}
