import Foundation
import SyncGateTesting
import Testing

@testable import SyncGateCore
@testable import SyncGateDurable

/// The version 8 golden journal: a calendar job's held span, appended to its record, and the
/// `calendarReplanned` record of a series planned again from a wall clock set back before its span.
extension GoldenJournalTests {
    @Test("v8-records.journal: every record decodes to the expected value, field by field")
    func version8Records() throws {
        try expectRecords(version: 8, GoldenJournal.version8Records)
    }

    @Test("v8-records.journal: the store replays a held span from a job's record and from a replanned series")
    func version8HeldSpanReplay() throws {
        let jobs = try openCopy("v8-records.journal").load().jobs
        let held = try #require(jobs.first { $0.id == "nightly-23" })
        #expect(held == GoldenJournal.heldCalendar)
        let replanned = try #require(jobs.first { $0.id == "nightly-19" })
        #expect(replanned.periodAnchor == Date(timeIntervalSince1970: 1_700_004_000.5))
        #expect(replanned.periods == SyncJobInfo.Periods(succeeded: 4, failed: 1, skipped: 2))
        #expect(
            replanned.calendarHeldSpan
                == Date(timeIntervalSince1970: 2_000_000_000)...Date(timeIntervalSince1970: 2_000_086_400))
        // Jobs of earlier versions have none.
        let older = jobs.filter { $0.sequence < 23 && $0.sequence != 19 }
        #expect(!older.isEmpty)
        #expect(older.allSatisfy { $0.calendarHeldSpan == nil })
    }

    @Test("v8-torn-tail.journal: the tail is cut and reported, the records before it are kept")
    func version8TornTail() throws {
        try expectTornTail(version: 8)
    }

    @Test("a held span in a job's record is not read by the v7 decoder; v8 reads it")
    func version7DoesNotReadHeldSpans() throws {
        let body = JournalCodec.encode(.submitted(GoldenJournal.heldCalendar))
        let misread = try? body.withUnsafeBytes { try JournalCodec.decode($0, version: 7) }
        #expect(misread != .submitted(GoldenJournal.heldCalendar))
        let record = GoldenJournal.version8Records.last!
        let replanned = JournalCodec.encode(record)
        #expect((try? replanned.withUnsafeBytes { try JournalCodec.decode($0, version: 7) }) == nil)
        #expect(try replanned.withUnsafeBytes { try JournalCodec.decode($0, version: 8) } == record)
    }

    @Test("a held span whose ends are out of order, or not a number, is malformed, not a trap")
    func heldSpanOutOfOrder() throws {
        for (lower, upper) in [(2.0, 1.0), (Double.nan, 1.0), (1.0, Double.nan)] {
            var writer = JournalWriter()
            writer.byte(8)
            writer.varint(19)
            writer.date(Date(timeIntervalSince1970: 0))
            for count in [1, 0, 0] { writer.int(count) }
            writer.double(lower)
            writer.double(upper)
            let body = writer.bytes
            // The closure returns nothing: a record read wrongly is not printed (`Date`'s description traps
            // on NaN), the expectation just fails.
            #expect(throws: JournalReader.Malformed.self, "\(lower)...\(upper)") {
                try body.withUnsafeBytes { _ = try JournalCodec.decode($0, version: 8) }
            }
        }
    }
}
