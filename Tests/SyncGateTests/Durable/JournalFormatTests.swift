import Foundation
import Testing

@testable import SyncGateCore
@testable import SyncGateDurable

/// The journal's byte format, record by record, and the scan that reads it back.
@Suite("Journal format", .timeLimit(.minutes(1)))
struct JournalFormatTests {
    static let records: [JobRecord] =
        [
            .submitted(fullyOptionedJob()),
            .submitted(plainJob(1)),
            .submitted(GoldenJournal.relaxed),
            .submitted(GoldenJournal.relaxedPeriodic),
            .attemptStarted(sequence: 7, attempt: 3),
            .attemptFinished(sequence: 7, failures: 2, retryAt: Date(timeIntervalSince1970: 1_700_000_100.5)),
            .attemptFinished(sequence: 7, failures: 0, retryAt: nil),
            .periodEnded(
                sequence: 7, anchor: Date(timeIntervalSince1970: 1_700_003_600.125),
                periods: SyncJobInfo.Periods(succeeded: 12, failed: 3, skipped: 40)),
            .submitted(periodicJob()),
            .submitted(
                plainJob(8, options: SyncJobOptions(uniqueKey: "k", onDuplicate: .append, dependsOn: ["b", "a"]))),
            .submitted(plainJob(9, options: SyncJobOptions(uniqueKey: "k", onDuplicate: .appendOrReplace))),
            .dependencyEnded(
                sequence: 8,
                result: StoredJob.DependencyResult(id: "a", resolution: .succeeded, output: Data("[1]".utf8))),
            .dependencyEnded(
                sequence: 8,
                result: StoredJob.DependencyResult(id: "b", resolution: .failed, ancestor: "c", detail: "lost: é")),
            .submitted(dependentJob()),
            .submitted(stoppedJob()),
            .attemptStopped(sequence: 12, reason: .requirementsLost([], conditions: ["é", "db-ready"])),
            // The strict requirement is one more bit of the same varint: no format change.
            .submitted(
                plainJob(
                    13,
                    options: SyncJobOptions(
                        requires: [.network, .unmeteredConfirmed],
                        relaxations: [.replace(.unmeteredConfirmed, with: .unmetered, after: .seconds(259_200))]))),
            .attemptStopped(sequence: 13, reason: .requirementsLost([.unmeteredConfirmed], conditions: [])),
            // So are the resource requirements (bits 13 and 14).
            .submitted(
                plainJob(
                    14,
                    options: SyncJobOptions(
                        requires: [.notUnderPressure, .notHot],
                        relaxations: [.drop(.notHot, after: .seconds(3_600))]))),
            .attemptStopped(sequence: 14, reason: .requirementsLost([.notUnderPressure, .notHot], conditions: [])),
        ] + JobRecord.Resolution.allCases.map { .resolved(sequence: 7, resolution: $0) }
        + [SyncJobStopReason.cancelled, .timedOut, .replaced, .shutdown].map {
            .attemptStopped(sequence: 12, reason: $0)
        }

    /// A job whose latest attempt was stopped by a loss of requirements, as compaction writes it.
    static func stoppedJob() -> StoredJob {
        var job = plainJob(12, options: SyncJobOptions(requires: [.network, .unmetered]))
        job.lastStartedAttempt = 1
        job.lastStopReason = .requirementsLost([.unmetered], conditions: [])
        return job
    }

    /// A dependent with the results of its dependencies that ended, as compaction writes it.
    static func dependentJob() -> StoredJob {
        var job = plainJob(11, options: SyncJobOptions(dependsOn: ["a", "b"]))
        job.dependencyResults = [
            StoredJob.DependencyResult(id: "a", resolution: .succeeded, output: Data("{}".utf8)),
            StoredJob.DependencyResult(id: "b", resolution: .expired),
        ]
        return job
    }

    /// A periodic job with its series under way, as compaction writes it.
    static func periodicJob() -> StoredJob {
        var job = plainJob(
            10, options: SyncJobOptions(period: SyncJobPeriod(every: .seconds(900), flex: .milliseconds(60_250))))
        job.periodAnchor = Date(timeIntervalSince1970: 1_700_001_800.5)
        job.periods = SyncJobInfo.Periods(succeeded: 1, failed: 0, skipped: 7)
        return job
    }

    @Test("every record type survives a round trip through a frame", arguments: records)
    func roundTrip(record: JobRecord) throws {
        let bytes = JournalCodec.header + JournalCodec.frame(record)
        let scan = bytes.withUnsafeBytes { JournalScan($0, path: "journal") }
        #expect(scan.issues.isEmpty)
        #expect(scan.records == [record])
        #expect(scan.validLength == bytes.count)
    }

    @Test("replay: attempts update progress, a resolution removes the job, unknown sequences are ignored")
    func replay() {
        var replay = JournalReplay()
        replay.apply(.submitted(plainJob(1)))
        replay.apply(.submitted(plainJob(2)))
        replay.apply(.attemptStarted(sequence: 1, attempt: 1))
        #expect(replay.job(1)?.isRunning == true)
        #expect(replay.job(1)?.lastStartedAttempt == 1)
        let retryAt = Date(timeIntervalSince1970: 5)
        replay.apply(.attemptFinished(sequence: 1, failures: 1, retryAt: retryAt))
        #expect(replay.job(1)?.isRunning == false)
        #expect(replay.job(1)?.failures == 1)
        #expect(replay.job(1)?.retryAt == retryAt)
        replay.apply(.resolved(sequence: 2, resolution: .succeeded))
        replay.apply(.attemptStarted(sequence: 1, attempt: 2))
        let anchor = Date(timeIntervalSince1970: 7)
        let periods = SyncJobInfo.Periods(succeeded: 1, failed: 0, skipped: 2)
        replay.apply(.periodEnded(sequence: 1, anchor: anchor, periods: periods))
        #expect(replay.job(1)?.isRunning == false)
        #expect(replay.job(1)?.failures == 0)
        #expect(replay.job(1)?.retryAt == nil)
        #expect(replay.job(1)?.periodAnchor == anchor)
        #expect(replay.job(1)?.periods == periods)
        replay.apply(.attemptStarted(sequence: 9, attempt: 1))
        #expect(replay.orderedJobs.map(\.sequence) == [1])
        #expect(replay.highestSequence == 9)
    }

    @Test("replay: jobs come out in sequence order through resolutions, holes closed and out-of-order submissions")
    func replayOrder() {
        var replay = JournalReplay()
        for sequence in 1...300 { replay.apply(.submitted(plainJob(UInt64(sequence)))) }
        // Resolving all but every tenth leaves more holes than jobs: they are closed.
        for sequence in 1...300 where sequence % 10 != 0 {
            replay.apply(.resolved(sequence: UInt64(sequence), resolution: .succeeded))
        }
        #expect(replay.count == 30)
        #expect(replay.orderedJobs.map(\.sequence) == Array(stride(from: 10, through: 300, by: 10)))
        replay.apply(.attemptStarted(sequence: 290, attempt: 3))
        #expect(replay.job(290)?.lastStartedAttempt == 3)
        #expect(replay.job(289) == nil)
        // A compaction's record for a pending job replaces it in place.
        var replaced = plainJob(20)
        replaced.failures = 4
        replay.apply(.submitted(replaced))
        #expect(replay.job(20)?.failures == 4)
        #expect(replay.count == 30)
        // A submission below the highest sequence (a salvaged or hand-made journal) still comes out in order.
        replay.apply(.submitted(plainJob(15)))
        replay.apply(.submitted(plainJob(301)))
        let expected = ([15] + Array(stride(from: 10, through: 300, by: 10)) + [301]).sorted()
        #expect(replay.orderedJobs.map(\.sequence) == expected.map(UInt64.init))
    }

    @Test("a frame cut off at any byte is a torn tail: the good frames before it are kept")
    func tornTailAtEveryLength() throws {
        let good = JournalCodec.header + JournalCodec.frame(.submitted(plainJob(1)))
        let last = JournalCodec.frame(.attemptStarted(sequence: 1, attempt: 1))
        for cut in 1..<last.count {
            let bytes = good + last[0..<cut]
            let scan = bytes.withUnsafeBytes { JournalScan($0, path: "journal") }
            #expect(scan.records == [.submitted(plainJob(1))], "cut at \(cut)")
            #expect(scan.validLength == good.count, "cut at \(cut)")
            #expect(scan.issues.map(\.kind) == [.truncatedTail], "cut at \(cut)")
        }
    }

    @Test("a flipped byte anywhere in a middle frame skips only that frame, and says where")
    func corruptMiddleFrame() throws {
        let first = JournalCodec.frame(.submitted(plainJob(1)))
        let middle = JournalCodec.frame(.submitted(plainJob(2)))
        let last = JournalCodec.frame(.submitted(plainJob(3)))
        for index in 0..<middle.count {
            var damaged = middle
            damaged[index] ^= 0x5A
            let bytes = JournalCodec.header + first + damaged + last
            let scan = bytes.withUnsafeBytes { JournalScan($0, path: "journal") }
            #expect(scan.records == [.submitted(plainJob(1)), .submitted(plainJob(3))], "byte \(index)")
            #expect(scan.issues.map(\.kind) == [.checksumMismatch], "byte \(index)")
            #expect(scan.issues.first?.offset == JournalCodec.header.count + first.count, "byte \(index)")
            #expect(scan.validLength == bytes.count, "byte \(index)")
        }
    }

    @Test("a frame with a good checksum but an unknown record type is skipped and reported")
    func unreadableRecord() throws {
        var body = JournalWriter()
        body.byte(99)
        var frame = JournalWriter()
        frame.uint32(JournalCodec.magic)
        frame.uint32(UInt32(body.bytes.count))
        var checked = JournalWriter()
        checked.uint32(UInt32(body.bytes.count))
        frame.uint32(CRC32C.checksum(checked.bytes + body.bytes))
        let bytes = JournalCodec.header + frame.bytes + body.bytes + JournalCodec.frame(.submitted(plainJob(1)))
        let scan = bytes.withUnsafeBytes { JournalScan($0, path: "journal") }
        #expect(scan.records == [.submitted(plainJob(1))])
        #expect(scan.issues.map(\.kind) == [.unreadableRecord])
        #expect(scan.issues.first?.detail.contains("unknown record type 99") == true)
    }

    @Test(
        "the header names the format version; anything else is not a journal header",
        arguments: [
            ("SGJRNL01", 1), ("SGJRNL02", 2), ("SGJRNL42", 42), ("SGJRNL00", 0), ("SGJRNL1", nil),
            ("SGJRNLx1", nil), ("sgjrnl01", nil), ("XXJRNL01", nil), ("", nil),
        ] as [(String, Int?)])
    func headerVersion(header: String, version: Int?) {
        #expect(JournalCodec.version(ofHeader: Array(header.utf8)) == version)
    }

    @Test("the header written is that of the current version")
    func currentHeader() {
        #expect(JournalCodec.header == Array("SGJRNL08".utf8))
        #expect(JournalCodec.header(version: JournalCodec.currentVersion) == JournalCodec.header)
        #expect(JournalCodec.version(ofHeader: JournalCodec.header) == JournalCodec.currentVersion)
    }

    @Test("a body of a version without a decoder is unreadable, and the issue names the version")
    func unknownVersionBody() throws {
        let bytes = JournalCodec.header + JournalCodec.frame(.submitted(plainJob(1)))
        let scan = bytes.withUnsafeBytes { JournalScan($0, path: "journal", version: 9) }
        #expect(scan.records.isEmpty)
        #expect(scan.issues.map(\.kind) == [.unreadableRecord])
        #expect(scan.issues.first?.detail.contains("version 9") == true)
    }

    @Test("CRC-32C matches the standard check value")
    func crcCheckValue() {
        #expect(CRC32C.checksum(Array("123456789".utf8)) == 0xE306_9283)
    }
}
