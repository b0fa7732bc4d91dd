import Foundation
import SyncGateTesting
import Testing

@testable import SyncGateCore
@testable import SyncGateDurable

/// A store that reports `highestSequence` as its highest sequence number, whatever it holds.
final class HighSequenceStore: JobStore {
    let inner: FileJobStore
    let highestSequence: UInt64

    init(_ inner: FileJobStore, highestSequence: UInt64) {
        self.inner = inner
        self.highestSequence = highestSequence
    }

    func load() throws -> JobStoreContents {
        var contents = try inner.load()
        contents.highestSequence = highestSequence
        return contents
    }

    func append(_ record: JobRecord) throws {
        try inner.append(record)
    }

    func close() throws {
        try inner.close()
    }
}

/// Sequence numbers at the ends of their range: a journal record above ``DurableScheduler/maximumSequence``
/// is malformed (skipped and reported), and once the numbers up to it are taken, submit throws naming the
/// store; neither a restore nor a submit ever traps.
@Suite("Durable sequence limits", .timeLimit(.minutes(1)))
struct DurableSequenceLimitTests {
    let directory = TemporaryDirectory()
    let clock = ManualClock()

    static let maximum = DurableScheduler.maximumSequence

    /// A durable scheduler on `store`, restored.
    func restored(_ store: any JobStore) throws -> (DurableScheduler, DurableRestoreReport) {
        let manual = ManualSyncEnvironment(clock: clock)
        let scheduler = SyncScheduler(environment: manual.environment, clock: clock)
        let durable = DurableScheduler(scheduler: scheduler, store: store)
        try durable.register("work", payload: [String: Int].self) { _, _ in }
        return (durable, try durable.restoreJobs())
    }

    /// The sequence number `submit` stored the job at, or `nil` when it threw that none is left.
    func submit(_ durable: DurableScheduler, id: String, store: FileJobStore) throws -> UInt64? {
        let failure: JobStoreError
        do {
            try durable.submit(DurableJob(id: id, kind: "work", payload: [String: Int]()))
            return try #require(try store.load().jobs.first { $0.id == id }).sequence
        } catch {
            guard case DurableJobError.storeFailed(let stored) = error, stored.code == .sequencesExhausted else {
                throw error
            }
            failure = stored
        }
        #expect(failure.path == store.journalPath)
        #expect(failure.cause.contains("\(Self.maximum)"))
        #expect(try !store.load().jobs.contains { $0.id == id })
        return nil
    }

    @Test(
        "a record's sequence number past the limit is malformed; the numbers left are given out, then submit throws",
        arguments: [
            (UInt64.max, true, [1, 2]),
            (UInt64.max - 1, true, [1, 2]),
            (maximum + 1, true, [1, 2]),
            (maximum, false, [nil, nil]),
            (maximum - 1, false, [maximum, nil]),
        ] as [(UInt64, Bool, [UInt64?])])
    func storedSequence(stored: UInt64, malformed: Bool, submitted: [UInt64?]) async throws {
        let first = try FileJobStore(directory: directory.path)
        try first.append(.resolved(sequence: stored, resolution: .succeeded))
        try first.close()

        let store = try FileJobStore(directory: directory.path)
        let (durable, report) = try restored(store)
        #expect(report.storeIssues.map(\.kind) == (malformed ? [.unreadableRecord] : []))
        if malformed {
            #expect(report.storeIssues.first?.detail.contains("sequence number \(stored)") == true)
        }
        #expect(try submit(durable, id: "a", store: store) == submitted[0])
        #expect(try submit(durable, id: "b", store: store) == submitted[1])
        _ = await durable.shutdown(gracePeriod: .zero)
    }

    @Test(
        "a store reporting a highest sequence number at or past the limit restores, and submit throws",
        arguments: [UInt64.max, .max - 1, maximum + 1, maximum] as [UInt64])
    func reportedSequence(highest: UInt64) async throws {
        let inner = try FileJobStore(directory: directory.path)
        let (durable, report) = try restored(HighSequenceStore(inner, highestSequence: highest))
        #expect(report.storeIssues.isEmpty)
        let error = #expect(throws: DurableJobError.self) {
            try durable.submit(DurableJob(id: "a", kind: "work", payload: [String: Int]()))
        }
        guard case .storeFailed(let failure)? = error else {
            Issue.record("expected storeFailed, got \(String(describing: error))")
            return
        }
        #expect(failure.code == .sequencesExhausted)
        #expect(failure.path.hasSuffix("HighSequenceStore"))
        #expect("\(failure)".contains("has no sequence number left for a new job"))
        #expect(try inner.load().jobs.isEmpty)
        _ = await durable.shutdown(gracePeriod: .zero)
    }
}
