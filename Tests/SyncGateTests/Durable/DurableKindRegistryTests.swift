import Foundation
import Testing

@testable import SyncGateCore
@testable import SyncGateDurable

/// The registry's restore decoding: each stored job's readiness and payload in the jobs' order, whether
/// one thread decodes them or several.
@Suite("DurableKindRegistry")
struct DurableKindRegistryTests {
    struct Note: Codable, Sendable, Equatable {
        var number: Int
    }

    @Test("the ranges of a decode cover every place once, in order, one range for a small restore")
    func parts() {
        #expect(DurableKindRegistry.parts(of: 0) == [0..<0])
        #expect(DurableKindRegistry.parts(of: DurableKindRegistry.jobsPerDecodingThread * 2 - 1).count == 1)
        for count in [1, 100, 8_192, 10_001, 123_457] {
            let ranges = DurableKindRegistry.parts(of: count)
            #expect(ranges.first?.lowerBound == 0)
            #expect(ranges.last?.upperBound == count)
            for (earlier, later) in zip(ranges, ranges.dropFirst()) { #expect(earlier.upperBound == later.lowerBound) }
            #expect(ranges.allSatisfy { $0.count >= min(count, DurableKindRegistry.jobsPerDecodingThread) })
        }
    }

    @Test(
        "each job's readiness and payload stay at its place: decoded, unknown kind, undecodable, skipped",
        arguments: [10, 20_011])
    func decodeKeepsOrder(count: Int) throws {
        var registry = DurableKindRegistry()
        let registered = registry.register("note", DurableKindRegistry.kind("note", payload: Note.self) { _, _ in })
        #expect(registered)
        let encoder = JSONEncoder()
        var jobs: [StoredJob] = []
        for index in 0..<count {
            let kind = index % 7 == 3 ? "gone" : "note"
            let payload = index % 11 == 5 ? Data("not json".utf8) : try encoder.encode(Note(number: index))
            jobs.append(
                StoredJob(
                    sequence: UInt64(index + 1), id: "j\(index)", kind: kind, payload: payload,
                    submittedAt: Date(timeIntervalSince1970: 1_700_000_000)))
        }
        let skipping: Set<UInt64> = Set(stride(from: 1, through: UInt64(count), by: 13))
        let (readiness, payloads) = registry.decode(jobs, skipping: skipping)
        #expect(readiness.count == count)
        #expect(payloads.count == count)
        var mismatches: [Int] = []
        for index in 0..<count {
            let skipped = skipping.contains(UInt64(index + 1))
            let payload = payloads[index] as? Note
            let matches: Bool
            switch readiness[index] {
            case .ready where skipped: matches = payload == nil
            case .ready: matches = index % 7 != 3 && index % 11 != 5 && payload == Note(number: index)
            case .unknownKind: matches = !skipped && index % 7 == 3 && payload == nil
            case .undecodable: matches = !skipped && index % 7 != 3 && index % 11 == 5 && payload == nil
            }
            if !matches { mismatches.append(index) }
        }
        #expect(mismatches.isEmpty, "wrong at \(mismatches.prefix(10))")
    }
}
