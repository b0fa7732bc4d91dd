import Foundation
import SyncGateTesting
import Testing

@testable import SyncGateCore
@testable import SyncGateDurable

/// The checked-in journal files of every released format version still read as they were written.
@Suite("Golden journals", .timeLimit(.minutes(1)))
struct GoldenJournalTests {
    let directory = TemporaryDirectory()

    func goldenBytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: GoldenJournal.path(name))))
    }

    /// Every record of `v<version>-records.journal` decodes to `expected`, in order, with no issue.
    func expectRecords(version: Int, _ expected: [JobRecord]) throws {
        let bytes = try goldenBytes("v\(version)-records.journal")
        #expect(Array(bytes.prefix(8)) == JournalCodec.header(version: version))
        let scan = bytes.withUnsafeBytes { JournalScan($0, path: "golden", version: version) }
        #expect(scan.issues.isEmpty)
        #expect(scan.validLength == bytes.count)
        try #require(scan.records.count == expected.count)
        for (index, (decoded, record)) in zip(scan.records, expected).enumerated() {
            #expect(decoded == record, "record \(index)")
        }
    }

    /// `v<version>-torn-tail.journal` keeps its whole records and reports its cut tail.
    func expectTornTail(version: Int) throws {
        let bytes = try goldenBytes("v\(version)-torn-tail.journal")
        #expect(Array(bytes.prefix(8)) == JournalCodec.header(version: version))
        let scan = bytes.withUnsafeBytes { JournalScan($0, path: "golden", version: version) }
        #expect(scan.records == GoldenJournal.tornTailRecords)
        #expect(scan.issues.map(\.kind) == [.truncatedTail])
        #expect(scan.issues.first?.length == GoldenJournal.tornLength)
        #expect(scan.validLength == bytes.count - GoldenJournal.tornLength)
    }

    /// Copies a golden file into a fresh store directory, so opening it (which may cut a tail) leaves the
    /// checked-in file alone.
    func openCopy(_ name: String) throws -> FileJobStore {
        try directory.write(try goldenBytes(name), to: directory.journal)
        return try FileJobStore(directory: directory.path)
    }

    @Test("v1-records.journal: every record decodes to the expected value, field by field")
    func version1Records() throws {
        try expectRecords(version: 1, GoldenJournal.records)
    }

    @Test("v1-records.journal: the store replays it into the expected jobs and progress")
    func version1Replay() throws {
        let store = try openCopy("v1-records.journal")
        let contents = try store.load()
        #expect(contents.issues.isEmpty)
        #expect(contents.highestSequence == 10)
        #expect(contents.jobs.map(\.id) == ["plain-1", "upload-2", "fixed-3", "deadline-4", "retired-5"])
        let jobs = Dictionary(uniqueKeysWithValues: contents.jobs.map { ($0.sequence, $0) })
        #expect(jobs[2] == GoldenJournal.fullyOptioned)
        let fixed = try #require(jobs[3])
        #expect(fixed.failures == 1)
        #expect(fixed.lastStartedAttempt == 2)
        #expect(fixed.isRunning)
        #expect(fixed.retryAt == GoldenJournal.retryAt)
        let deadline = try #require(jobs[4])
        #expect(deadline.failures == 0)
        #expect(deadline.lastStartedAttempt == 1)
        #expect(!deadline.isRunning)
        #expect(deadline.retryAt == nil)
    }

    @Test("v1-torn-tail.journal: the tail is cut and reported, the records before it are kept")
    func version1TornTail() throws {
        try expectTornTail(version: 1)

        let store = try openCopy("v1-torn-tail.journal")
        let contents = try store.load()
        #expect(contents.jobs.map(\.id) == ["kept-1"])
        #expect(contents.jobs.first?.isRunning == true)
        #expect(contents.issues.map(\.kind) == [.truncatedTail])
    }

    @Test(
        "a journal of a newer format version is refused, naming the version; the file is left alone",
        arguments: [9, 10, 99])
    func newerVersionRefused(version: Int) throws {
        let golden = try goldenBytes("v1-records.journal")
        let newer = JournalCodec.header(version: version) + golden.dropFirst(JournalCodec.headerLength)
        try directory.write(newer, to: directory.journal)
        let error = try #require(throws: JobStoreError.self) { try FileJobStore(directory: directory.path) }
        #expect(error.code == .unsupportedVersion)
        #expect(error.path == directory.journal)
        #expect(error.description.contains("format version \(version)"))
        #expect(try directory.bytes(of: directory.journal) == newer)
    }

    @Test(
        "a bit flipped anywhere in the header: the file is refused and left alone; salvage recovers every job",
        arguments: [
            "v1-records.journal", "v2-records.journal", "v3-records.journal", "v4-records.journal",
            "v5-records.journal", "v6-records.journal", "v7-records.journal", "v8-records.journal",
        ])
    func damagedHeader(name: String) throws {
        let golden = try goldenBytes(name)
        let expected = try openCopy(name).load().jobs
        for bit in 0..<(JournalCodec.headerLength * 8) {
            var damaged = golden
            damaged[bit / 8] ^= UInt8(1) << (bit % 8)
            let store = TemporaryDirectory()
            try store.write(damaged, to: store.journal)
            // A flip to another readable version ("03" to "02", say) must not read the records with the
            // wrong decoder: opening would drop the ones it cannot read and rewrite the file without them.
            let error = try #require(throws: JobStoreError.self, "bit \(bit)") {
                try FileJobStore(directory: store.path)
            }
            #expect([.notAJournal, .unsupportedVersion].contains(error.code), "bit \(bit)")
            #expect(error.description.contains("salvage") || error.code == .unsupportedVersion, "bit \(bit)")
            #expect(try store.bytes(of: store.journal) == damaged, "bit \(bit)")
            let target = TemporaryDirectory()
            let salvaged = try FileJobStore.salvage(journal: store.journal, into: target.path)
            #expect(salvaged.jobs == expected, "bit \(bit)")
            #expect(salvaged.issues.isEmpty, "bit \(bit)")
            #expect(try FileJobStore(directory: target.path).load().jobs == expected, "bit \(bit)")
        }
    }

    @Test("v2-records.journal: every record decodes to the expected value, field by field")
    func version2Records() throws {
        try expectRecords(version: 2, GoldenJournal.version2Records)
    }

    @Test("v2-records.journal: the store replays the periodic series, the dependencies and the appends")
    func version2Replay() throws {
        let store = try openCopy("v2-records.journal")
        let contents = try store.load()
        #expect(contents.issues.isEmpty)
        #expect(contents.highestSequence == 13)
        #expect(
            contents.jobs.map(\.id) == [
                "plain-1", "upload-2", "fixed-3", "deadline-4", "retired-5", "feed-11", "chained-12", "appended-13",
            ])
        let jobs = Dictionary(uniqueKeysWithValues: contents.jobs.map { ($0.sequence, $0) })
        #expect(jobs[2] == GoldenJournal.fullyOptioned)
        let periodic = try #require(jobs[11])
        #expect(periodic.options == GoldenJournal.periodic.options)
        #expect(periodic.periodAnchor == GoldenJournal.retryAt)
        #expect(periodic.periods == SyncJobInfo.Periods(succeeded: 4, failed: 1, skipped: 3))
        #expect(!periodic.isRunning)
        #expect(jobs[12]?.options.dependsOn == ["plain-1", "upload-2"])
        #expect(jobs[12]?.options.onDuplicate == .append)
        #expect(jobs[13]?.options.onDuplicate == .appendOrReplace)
    }

    @Test("v2-torn-tail.journal: the tail is cut and reported, the records before it are kept")
    func version2TornTail() throws {
        try expectTornTail(version: 2)
    }

    @Test(
        "a v1, v2, v3, v4, v5 or v6 journal is rewritten in the current version when opened, and reads back the same jobs",
        arguments: [
            ("v1-records.journal", 5), ("v2-records.journal", 8), ("v3-records.journal", 9), ("v4-records.journal", 10),
            ("v5-records.journal", 14), ("v6-records.journal", 16),
        ])
    func olderVersionUpgraded(name: String, jobCount: Int) throws {
        let first = try openCopy(name)
        let before = try first.load().jobs
        try first.close()
        let bytes = try directory.bytes(of: directory.journal)
        #expect(Array(bytes.prefix(8)) == JournalCodec.header)
        let reopened = try FileJobStore(directory: directory.path)
        #expect(try reopened.load().jobs == before)
        try reopened.close()
        #expect(before.count == jobCount)
        #expect(Array(before.map(\.id).prefix(5)) == ["plain-1", "upload-2", "fixed-3", "deadline-4", "retired-5"])
    }

    @Test("v3-records.journal: every record decodes to the expected value, field by field")
    func version3Records() throws {
        try expectRecords(version: 3, GoldenJournal.version3Records)
    }

    @Test("v3-records.journal: the store replays the dependency results, a later one for an id replacing it")
    func version3Replay() throws {
        let store = try openCopy("v3-records.journal")
        let contents = try store.load()
        #expect(contents.issues.isEmpty)
        #expect(contents.highestSequence == 14)
        let jobs = Dictionary(uniqueKeysWithValues: contents.jobs.map { ($0.sequence, $0) })
        #expect(jobs[12]?.dependencyResults.map(\.id) == ["plain-1", "upload-2"])
        #expect(jobs[12]?.dependencyResults.last?.ancestor == "root-0")
        #expect(jobs[14]?.dependencyResults.map(\.id) == ["chained-12", "appended-13"])
        #expect(jobs[14]?.dependencyResults.first?.detail == "disk full")
        #expect(jobs[14]?.dependencyResults.last?.output == Data("{\"photos\":[1,2]}".utf8))
    }

    @Test("v3-torn-tail.journal: the tail is cut and reported, the records before it are kept")
    func version3TornTail() throws {
        try expectTornTail(version: 3)
    }

    @Test("v4-records.journal: every record decodes to the expected value, field by field")
    func version4Records() throws {
        try expectRecords(version: 4, GoldenJournal.version4Records)
    }

    @Test("v4-records.journal: the store replays the last stop reason; a start clears it, a stop sets it")
    func version4Replay() throws {
        let store = try openCopy("v4-records.journal")
        let contents = try store.load()
        #expect(contents.issues.isEmpty)
        let jobs = Dictionary(uniqueKeysWithValues: contents.jobs.map { ($0.sequence, $0) })
        #expect(jobs[15]?.lastStopReason == .requirementsLost(.network, conditions: []))
        #expect(jobs[14]?.lastStopReason == nil)
        var replay = JournalReplay()
        for record in GoldenJournal.version4Records.prefix(GoldenJournal.version4Records.count - 5) {
            replay.apply(record)
        }
        #expect(replay.job(15)?.lastStopReason == nil)
        #expect(replay.job(15)?.isRunning == true)
    }

    @Test("v4-torn-tail.journal: the tail is cut and reported, the records before it are kept")
    func version4TornTail() throws {
        try expectTornTail(version: 4)
    }

    @Test("v5-records.journal: every record decodes to the expected value, field by field")
    func version5Records() throws {
        try expectRecords(version: 5, GoldenJournal.version5Records)
    }

    @Test("v5-records.journal: the store replays the relaxations of each job")
    func version5Replay() throws {
        let contents = try openCopy("v5-records.journal").load()
        #expect(contents.issues.isEmpty)
        let jobs = Dictionary(uniqueKeysWithValues: contents.jobs.map { ($0.sequence, $0) })
        #expect(jobs[16]?.options.relaxations == GoldenJournal.relaxed.options.relaxations)
        #expect(jobs[16]?.failures == 1)
        #expect(jobs[17]?.options.relaxations == [.replace(.unmetered, with: .network, after: .seconds(3_600))])
        #expect(jobs[17]?.isRunning == true)
        #expect(jobs[15]?.options.relaxations == [])
    }

    @Test("v5-records.journal: the store replays a calendar job's schedule and its latest occurrence")
    func version5CalendarReplay() throws {
        let store = try openCopy("v5-records.journal")
        let contents = try store.load()
        #expect(contents.issues.isEmpty)
        let jobs = Dictionary(uniqueKeysWithValues: contents.jobs.map { ($0.sequence, $0) })
        let full = try #require(jobs[18]?.options.calendar)
        #expect(full.weekdays == [.monday, .thursday])
        #expect(full.hours == [2, 18] && full.minutes == [0, 30] && full.seconds == [15])
        #expect(full.timeZone?.identifier == "Europe/Berlin")
        #expect(full.window == .seconds(5400) && full.randomizedDelay == .milliseconds(600_250))
        #expect(full.catchUp == .skip)
        #expect(jobs[18]?.options.relaxations == [.drop(.unmetered, after: .seconds(1_800))])
        #expect(jobs[18]?.periodAnchor == Date(timeIntervalSince1970: 1_700_028_000))
        #expect(jobs[18]?.periods == SyncJobInfo.Periods(succeeded: 2, failed: 0, skipped: 1))
        #expect(jobs[19]?.options.calendar == .daily(hour: 2, minute: 0, window: .seconds(3600)))
        #expect(jobs[19]?.options.calendar?.timeZone == nil)
        #expect(jobs[17]?.options.calendar == nil)
    }

    @Test("v5-torn-tail.journal: the tail is cut and reported, the records before it are kept")
    func version5TornTail() throws {
        try expectTornTail(version: 5)
    }

    @Test("a calendar job's record is refused by the v4 decoder (its options run past v4's), read by the current one")
    func version4RefusesCalendar() throws {
        let body = JournalCodec.encode(.submitted(GoldenJournal.calendarFull))
        #expect(throws: JournalReader.Malformed.self) {
            try body.withUnsafeBytes { try JournalCodec.decode($0, version: 4) }
        }
        let decoded = try body.withUnsafeBytes { try JournalCodec.decode($0, version: JournalCodec.currentVersion) }
        #expect(decoded == .submitted(GoldenJournal.calendarFull))
    }

    @Test("a job record with relaxations read by the version 4 decoder is not read as relaxed")
    func version4DoesNotReadRelaxations() throws {
        let body = JournalCodec.encode(.submitted(GoldenJournal.relaxed))
        let decoded = try body.withUnsafeBytes { try JournalCodec.decode($0, version: JournalCodec.currentVersion) }
        #expect(decoded == .submitted(GoldenJournal.relaxed))
        let misread = try? body.withUnsafeBytes { try JournalCodec.decode($0, version: 4) }
        #expect(misread != .submitted(GoldenJournal.relaxed))
    }

    @Test("a v3 record of type 7 (attemptStopped, from v4) is refused as malformed, not misread")
    func version3RefusesNewRecordType() throws {
        let body = JournalCodec.encode(.attemptStopped(sequence: 1, reason: .shutdown))
        #expect(throws: JournalReader.Malformed.self) {
            try body.withUnsafeBytes { try JournalCodec.decode($0, version: 3) }
        }
        let decoded = try body.withUnsafeBytes { try JournalCodec.decode($0, version: 4) }
        #expect(decoded == .attemptStopped(sequence: 1, reason: .shutdown))
    }

    @Test("a v2 record of type 6 (dependencyEnded, from v3) is refused as malformed, not misread")
    func version2RefusesNewRecordType() throws {
        let body = JournalCodec.encode(
            .dependencyEnded(sequence: 1, result: StoredJob.DependencyResult(id: "a", resolution: .succeeded)))
        #expect(throws: JournalReader.Malformed.self) {
            try body.withUnsafeBytes { try JournalCodec.decode($0, version: 2) }
        }
        let decoded = try body.withUnsafeBytes { try JournalCodec.decode($0, version: 3) }
        #expect(decoded.sequence == 1)
    }

    @Test("a v1 record of type 5 (periodEnded, from v2) is refused as malformed, not misread")
    func version1RefusesNewRecordType() throws {
        let body = JournalCodec.encode(
            .periodEnded(
                sequence: 1, anchor: GoldenJournal.retryAt,
                periods: SyncJobInfo.Periods(succeeded: 0, failed: 0, skipped: 0)))
        #expect(throws: JournalReader.Malformed.self) {
            try body.withUnsafeBytes { try JournalCodec.decode($0, version: 1) }
        }
        let decoded = try body.withUnsafeBytes { try JournalCodec.decode($0, version: 2) }
        #expect(decoded.sequence == 1)
    }

    @Test("v1-records.journal restores into a scheduler; the job of an unregistered kind is kept")
    func version1Restore() async throws {
        let store = try openCopy("v1-records.journal")
        let clock = ManualClock()
        let manual = ManualSyncEnvironment(clock: clock)
        let scheduler = SyncScheduler(environment: manual.environment, clock: clock)
        let durable = DurableScheduler(scheduler: scheduler, store: store, wallClock: { GoldenJournal.submittedAt })
        // The bodies run until the scheduler shuts down, so a restored job that starts at once is still in
        // the snapshot below (an empty body could finish and leave it first).
        try durable.register("work", payload: [String: Int].self) { _, _ in try await clock.sleep(for: .seconds(3600)) }
        try durable.register("upload", payload: [String: Int].self) { _, _ in
            try await clock.sleep(for: .seconds(3600))
        }
        let report = try durable.restoreJobs()
        #expect(report.restored.map(\.id) == ["plain-1", "upload-2", "fixed-3", "deadline-4"])
        #expect(report.interrupted == ["upload-2", "fixed-3"])
        #expect(report.kept.map(\.id) == ["retired-5"])
        #expect(report.kept.first?.reason == .unknownKind)
        #expect(report.storeIssues.isEmpty)
        let snapshot = scheduler.snapshot()
        #expect(snapshot.job("upload-2")?.uniqueKey == "photo-42")
        #expect(snapshot.job("upload-2")?.serialGroup == "uploads")
        #expect(snapshot.job("upload-2")?.priority == .high)
        #expect(snapshot.job("fixed-3")?.attempt == 2)
        await scheduler.shutdown(gracePeriod: .zero)
    }
}
