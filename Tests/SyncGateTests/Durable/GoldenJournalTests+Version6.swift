import Foundation
import SyncGateTesting
import Testing

@testable import SyncGateCore
@testable import SyncGateDurable

/// The version 6 golden journal: a job's allowed networks, appended after the calendar fields.
extension GoldenJournalTests {
    @Test("v6-records.journal: every record decodes to the expected value, field by field")
    func version6Records() throws {
        try expectRecords(version: 6, GoldenJournal.version6Records)
    }

    @Test("v6-records.journal: the store replays each job's allowed networks; jobs without keep none")
    func version6Replay() throws {
        let contents = try openCopy("v6-records.journal").load()
        #expect(contents.issues.isEmpty)
        let jobs = Dictionary(uniqueKeysWithValues: contents.jobs.map { ($0.sequence, $0) })
        #expect(jobs[20]?.options.allowedNetworks == GoldenJournal.networked.options.allowedNetworks)
        #expect(
            jobs[20]?.options.allowedNetworks?.description
                == "wl*,type:wired-ethernet,connection:Office\\, 2nd floor,ssid:Home")
        #expect(jobs[21]?.options.allowedNetworks == SyncNetworkAllowlist([.ssid("Café")]))
        #expect(jobs[21]?.options.calendar == GoldenJournal.networkedCalendar.options.calendar)
        #expect(jobs[16]?.options.allowedNetworks == nil)
    }

    @Test("v6-torn-tail.journal: the tail is cut and reported, the records before it are kept")
    func version6TornTail() throws {
        try expectTornTail(version: 6)
    }

    @Test("a record with allowed networks is not read with them by the version 5 decoder, only by the current one")
    func version5DoesNotReadAllowedNetworks() throws {
        let body = JournalCodec.encode(.submitted(GoldenJournal.networked))
        let decoded = try body.withUnsafeBytes { try JournalCodec.decode($0, version: JournalCodec.currentVersion) }
        #expect(decoded == .submitted(GoldenJournal.networked))
        let misread = try? body.withUnsafeBytes { try JournalCodec.decode($0, version: 5) }
        #expect(misread != .submitted(GoldenJournal.networked))
    }

    @Test(
        "a malformed allowed-networks field is refused as malformed, not misread",
        arguments: [
            [1, 1, 9, 1, 0x41] as [UInt8],  // kind 9
            [1, 1, 1, 3, 0x66, 0x6F, 0x6F],  // type "foo"
            [1, 200],  // a count past the record's end
        ])
    func malformedAllowedNetworks(bytes: [UInt8]) throws {
        #expect(throws: JournalReader.Malformed.self) {
            try bytes.withUnsafeBytes { raw in
                var reader = JournalReader(raw)
                _ = try JournalCodec.decodeAllowedNetworks(&reader)
            }
        }
    }

    @Test("the allowed networks round-trip through their encoder and decoder, absent ones too")
    func roundTrip() throws {
        for allowlist in [
            nil, SyncNetworkAllowlist([.interface("eth0")]), GoldenJournal.networked.options.allowedNetworks,
        ] {
            var writer = JournalWriter()
            JournalCodec.encodeAllowedNetworks(allowlist, into: &writer)
            let decoded = try writer.bytes.withUnsafeBytes { raw in
                var reader = JournalReader(raw)
                return try JournalCodec.decodeAllowedNetworks(&reader)
            }
            #expect(decoded == allowlist)
        }
    }
}
