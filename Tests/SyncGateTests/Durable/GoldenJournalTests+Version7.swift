import Foundation
import SyncGateTesting
import Testing

@testable import SyncGateCore
@testable import SyncGateDurable

/// The version 7 golden journal: a job's file trigger, appended after the allowed networks, and a
/// file-triggered job's `periodEnded` record, whose anchor is its run's start.
extension GoldenJournalTests {
    @Test("v7-records.journal: every record decodes to the expected value, field by field")
    func version7Records() throws {
        try expectRecords(version: 7, GoldenJournal.version7Records)
    }

    @Test("v7-records.journal: the store replays a file-triggered job's trigger, counts and last run's start")
    func version7FileTriggerReplay() throws {
        let jobs = try openCopy("v7-records.journal").load().jobs
        let job = try #require(jobs.first { $0.id == "docs-22" })
        #expect(
            job.options.fileTrigger
                == SyncFileTrigger(paths: ["/srv/docs", "/srv/notes.txt"], quietPeriod: .seconds(5)))
        #expect(job.periods == SyncJobInfo.Periods(succeeded: 3, failed: 1, skipped: 0))
        #expect(job.periodAnchor == Date(timeIntervalSince1970: 1_700_030_000))
        let networked = jobs.first { $0.id == "home-20" }
        #expect(networked?.options.allowedNetworks == GoldenJournal.networked.options.allowedNetworks)
    }

    @Test("v7-torn-tail.journal: the tail is cut and reported, the records before it are kept")
    func version7TornTail() throws {
        try expectTornTail(version: 7)
    }

    @Test("a file-triggered job's record is not read as one by the v6 decoder; the current one reads it")
    func version6DoesNotReadFileTriggers() throws {
        let body = JournalCodec.encode(.submitted(GoldenJournal.fileTriggered))
        let misread = try? body.withUnsafeBytes { try JournalCodec.decode($0, version: 6) }
        #expect(misread != .submitted(GoldenJournal.fileTriggered))
        let decoded = try body.withUnsafeBytes { try JournalCodec.decode($0, version: JournalCodec.currentVersion) }
        #expect(decoded == .submitted(GoldenJournal.fileTriggered))
    }
}
