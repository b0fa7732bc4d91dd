import Testing

@testable import SyncGateCore
@testable import SyncGateDurable

/// The kept jobs' index: which kept job holds an id or unique key, after any sequence of keeps,
/// replacements and releases.
@Suite("Durable holds", .timeLimit(.minutes(1)))
struct DurableHoldsTests {
    /// One change: keep `id` (with `key`) under `sequence`, or let go of `sequence` (`id` nil).
    struct Change: Sendable {
        let sequence: UInt64
        let id: String?
        let key: String?
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let changes: [Change]
        let query: (id: String, key: String?, excluding: UInt64?)
        /// The field and holder named, or nil when nothing holds either.
        let expected: (field: String, holder: String)?
        var testDescription: String { name }
    }

    static func keep(_ sequence: UInt64, _ id: String, _ key: String? = nil) -> Change {
        Change(sequence: sequence, id: id, key: key)
    }
    static func release(_ sequence: UInt64) -> Change { Change(sequence: sequence, id: nil, key: nil) }

    static let cases: [Case] = [
        .init(name: "nothing kept", changes: [], query: ("a", "k", nil), expected: nil),
        .init(name: "an id held", changes: [keep(3, "a")], query: ("a", nil, nil), expected: ("id", "a")),
        .init(name: "a key held", changes: [keep(3, "b", "k")], query: ("a", "k", nil), expected: ("uniqueKey", "b")),
        .init(
            name: "the lowest sequence wins, whichever index finds it",
            changes: [keep(7, "a"), keep(2, "b", "k")], query: ("a", "k", nil), expected: ("uniqueKey", "b")),
        .init(
            name: "the id is named when one holder holds both",
            changes: [keep(4, "a", "k")], query: ("a", "k", nil), expected: ("id", "a")),
        .init(
            name: "the excluded sequence holds nothing",
            changes: [keep(4, "a", "k")], query: ("a", "k", 4), expected: nil),
        .init(
            name: "the excluded one is passed over for the next",
            changes: [keep(4, "a", "k"), keep(9, "c", "k")], query: ("a", "k", 4), expected: ("uniqueKey", "c")),
        .init(
            name: "a released job holds nothing",
            changes: [keep(4, "a", "k"), release(4)], query: ("a", "k", nil), expected: nil),
        .init(
            name: "a replaced hold lets go of its old id and key",
            changes: [keep(4, "a", "k"), keep(4, "b", "m")], query: ("a", "k", nil), expected: nil),
        .init(
            name: "a replaced hold holds its new key",
            changes: [keep(4, "a", "k"), keep(4, "b", "m")], query: ("z", "m", nil), expected: ("uniqueKey", "b")),
        .init(
            name: "one of two holders of an id released",
            changes: [keep(1, "a"), keep(5, "a"), release(1)], query: ("a", nil, nil), expected: ("id", "a")),
    ]

    @Test("finds the holder", arguments: cases)
    func holder(_ test: Case) {
        var holds = DurableHolds()
        for change in test.changes {
            holds[change.sequence] = change.id.map { id in
                DurableRestorePlan.Hold(
                    job: KeptDurableJob(id: id, kind: "k", sequence: change.sequence, reason: .unknownKind),
                    uniqueKey: change.key)
            }
        }
        let refusal = holds.holder(of: test.query.id, uniqueKey: test.query.key, excluding: test.query.excluding)
        #expect(refusal?.field == test.expected?.field)
        #expect(refusal?.relatedJobs.first == test.expected?.holder)
        #expect(holds.jobs.map(\.sequence) == holds.jobs.map(\.sequence).sorted())
    }
}
