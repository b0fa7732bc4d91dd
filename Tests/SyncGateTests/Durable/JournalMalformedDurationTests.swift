import Foundation
import SyncGateTesting
import Testing

@testable import SyncGateCore
@testable import SyncGateDurable

/// A journal record whose duration field holds a pair of seconds and attoseconds that the writer never
/// writes (attoseconds of a whole second or more, or of the other sign than the seconds), with a good
/// checksum: the record is malformed, skipped and reported like any unreadable record, so nothing that
/// writes the jobs again (compaction, salvage) or restores them meets a duration beyond what the journal
/// holds.
@Suite("Journal malformed durations", .timeLimit(.minutes(1)))
struct JournalMalformedDurationTests {
    let directory = TemporaryDirectory()

    /// What reads the patched journal.
    enum Reader: String, CaseIterable, Sendable {
        /// A store opened on it, then compacted.
        case compact
        /// A store opened on a journal of an older format version, which compacts it as it opens.
        case openOlderVersion
        /// `FileJobStore.salvage(journal:into:)`.
        case salvage
        /// A durable scheduler's restore.
        case restore
    }

    /// Seconds and attoseconds the writer never writes together.
    static let malformed: [(Int64, Int64)] = [
        (.max, .max), (.min, .min), (600, 1_000_000_000_000_000_000), (600, -1), (-600, 1),
    ]

    /// The duration whose encoding is patched: a run timeout here, and the calendar's randomized delay of
    /// job 18 in `v6-records.journal`.
    static let marker = Duration.milliseconds(600_250)

    static func encoded(seconds: Int64, attoseconds: Int64) -> [UInt8] {
        var writer = JournalWriter()
        writer.int(seconds)
        writer.int(attoseconds)
        return writer.bytes
    }

    /// `journal` with `old` replaced by `new` in every record body, each framed again with its checksum;
    /// also how many bodies held `old`.
    static func patched(_ journal: [UInt8], replacing old: [UInt8], with new: [UInt8]) -> ([UInt8], Int) {
        var result = Array(journal.prefix(JournalCodec.headerLength))
        var offset = JournalCodec.headerLength
        var count = 0
        while offset + JournalCodec.frameOverhead <= journal.count {
            let length = (0..<4).reduce(0) { $0 | Int(journal[offset + 4 + $1]) << (8 * $1) }
            let start = offset + JournalCodec.frameOverhead
            var body = Array(journal[start..<start + length])
            if let range = body.firstRange(of: old) {
                body.replaceSubrange(range, with: new)
                count += 1
            }
            result += JournalCodec.frame(body: body)
            offset = start + length
        }
        return (result, count)
    }

    @Test(
        "a record with a malformed duration is skipped and reported, never written again nor a trap",
        arguments: Reader.allCases, malformed)
    func malformedDuration(reader: Reader, pair: (Int64, Int64)) async throws {
        let old = Self.encoded(seconds: 600, attoseconds: 250_000_000_000_000_000)
        let new = Self.encoded(seconds: pair.0, attoseconds: pair.1)
        var journal: [UInt8]
        if reader == .openOlderVersion {
            journal = Array(try Data(contentsOf: URL(fileURLWithPath: GoldenJournal.path("v6-records.journal"))))
        } else {
            let store = try FileJobStore(directory: directory.path)
            try store.append(.submitted(plainJob(1, options: SyncJobOptions(runTimeout: Self.marker))))
            try store.append(.submitted(plainJob(2)))
            try store.close()
            journal = try directory.bytes(of: directory.journal)
        }
        let (bytes, patches) = Self.patched(journal, replacing: old, with: new)
        try #require(patches == 1)
        try directory.write(bytes, to: directory.journal)

        let issues: [JobStoreIssue]
        let remaining: [UInt64]
        switch reader {
        case .compact:
            let store = try FileJobStore(directory: directory.path)
            try store.compact()
            issues = try store.load().issues
            try store.close()
            let reopened = try FileJobStore(directory: directory.path)
            let contents = try reopened.load()
            #expect(contents.issues.isEmpty)
            remaining = contents.jobs.map(\.sequence)
            try reopened.close()
        case .openOlderVersion:
            let store = try FileJobStore(directory: directory.path)
            let contents = try store.load()
            issues = contents.issues
            remaining = contents.jobs.map(\.sequence)
            try store.close()
            // The jobs the intact file leaves, but job 18.
            let intact = TemporaryDirectory()
            try intact.write(journal, to: intact.journal)
            let reference = try FileJobStore(directory: intact.path)
            let pending = try reference.load().jobs.map(\.sequence)
            try reference.close()
            #expect(pending.contains(18))
            #expect(remaining == pending.filter { $0 != 18 })
        case .salvage:
            let salvaged = TemporaryDirectory()
            let contents = try FileJobStore.salvage(journal: directory.journal, into: salvaged.path)
            issues = contents.issues
            let store = try FileJobStore(directory: salvaged.path)
            remaining = try store.load().jobs.map(\.sequence)
            #expect(remaining == contents.jobs.map(\.sequence))
            try store.close()
        case .restore:
            let clock = ManualClock()
            let manual = ManualSyncEnvironment(clock: clock)
            let scheduler = SyncScheduler(environment: manual.environment, clock: clock)
            let store = try FileJobStore(directory: directory.path)
            let durable = DurableScheduler(scheduler: scheduler, store: store)
            try durable.register("work", payload: [String: Int].self) { _, _ in }
            let report = try durable.restoreJobs()
            issues = report.storeIssues
            #expect(report.restored.map(\.id) == ["job-2"])
            remaining = try store.load().jobs.map(\.sequence)
            _ = await durable.shutdown(gracePeriod: .zero)
        }
        #expect(issues.map(\.kind) == [.unreadableRecord])
        #expect(issues.first?.detail.contains("duration") == true)
        if reader != .openOlderVersion { #expect(remaining == [2]) }
    }
}
