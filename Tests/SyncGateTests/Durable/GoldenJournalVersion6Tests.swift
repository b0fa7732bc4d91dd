import Foundation
import SyncGateTesting
import Testing

@testable import SyncGateCore
@testable import SyncGateDurable

/// The version 6 golden journal: a job's allowed networks, appended after the calendar fields.
@Suite("Golden journals, version 6", .timeLimit(.minutes(1)))
struct GoldenJournalVersion6Tests {
    let directory = TemporaryDirectory()

    func goldenBytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: GoldenJournal.path(name))))
    }

    @Test("v6-records.journal: every record decodes to the expected value, field by field")
    func version6Records() throws {
        let bytes = try goldenBytes("v6-records.journal")
        #expect(Array(bytes.prefix(8)) == Array("SGJRNL06".utf8))
        let scan = bytes.withUnsafeBytes { JournalScan($0, path: "golden", version: 6) }
        #expect(scan.issues.isEmpty)
        #expect(scan.validLength == bytes.count)
        try #require(scan.records.count == GoldenJournal.version6Records.count)
        for (index, (decoded, expected)) in zip(scan.records, GoldenJournal.version6Records).enumerated() {
            #expect(decoded == expected, "record \(index)")
        }
    }

    @Test("v6-records.journal: the store replays each job's allowed networks; jobs without keep none")
    func version6Replay() throws {
        try directory.write(try goldenBytes("v6-records.journal"), to: directory.journal)
        let contents = try FileJobStore(directory: directory.path).load()
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
        let bytes = try goldenBytes("v6-torn-tail.journal")
        let scan = bytes.withUnsafeBytes { JournalScan($0, path: "golden", version: 6) }
        #expect(scan.records == GoldenJournal.tornTailRecords)
        #expect(scan.issues.map(\.kind) == [.truncatedTail])
    }

    @Test("a record with allowed networks read by the version 5 decoder is not read with them; v6 reads them")
    func version5DoesNotReadAllowedNetworks() throws {
        let body = JournalCodec.encode(.submitted(GoldenJournal.networked))
        let decoded = try body.withUnsafeBytes { try JournalCodec.decode($0, version: 6) }
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
