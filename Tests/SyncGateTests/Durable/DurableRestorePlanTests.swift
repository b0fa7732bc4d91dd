import Foundation
import Testing

@testable import SyncGateCore
@testable import SyncGateDurable

/// The restore plan on its own: stored jobs and what the layer made of them in, decisions out, with the
/// scheduler's answers scripted.
@Suite("Durable restore plan", .timeLimit(.minutes(1)))
struct DurableRestorePlanTests {
    static let submittedAt = Date(timeIntervalSince1970: 1_000_000)

    /// A stored job with the fields the plan reads.
    static func job(
        _ sequence: UInt64, _ id: String, uniqueKey: String? = nil, deadline: Duration? = nil, started: Bool = false,
        dependsOn: [String] = []
    ) -> StoredJob {
        var options = SyncJobOptions()
        options.uniqueKey = uniqueKey
        options.startDeadline = deadline
        options.dependsOn = dependsOn
        var stored = StoredJob(
            sequence: sequence, id: id, kind: "k", payload: Data(), submittedAt: submittedAt, options: options)
        stored.lastStartedAttempt = started ? 1 : 0
        return stored
    }

    struct ClassifyCase: Sendable, CustomTestStringConvertible {
        let name: String
        let stored: StoredJob
        let readiness: DurableRestorePlan.Readiness
        let isActive: Bool
        let secondsAfterSubmission: Double
        let expected: DurableRestorePlan.Classification
        var testDescription: String { name }
    }

    static let classifyCases: [ClassifyCase] = [
        .init(
            name: "active is left alone", stored: job(1, "a"), readiness: .unknownKind, isActive: true,
            secondsAfterSubmission: 0, expected: .active),
        .init(
            name: "unknown kind is kept", stored: job(1, "a"), readiness: .unknownKind, isActive: false,
            secondsAfterSubmission: 0, expected: .keep(.unknownKind)),
        .init(
            name: "undecodable payload is kept", stored: job(1, "a"), readiness: .undecodable("bad"),
            isActive: false, secondsAfterSubmission: 0, expected: .keep(.undecodablePayload("bad"))),
        .init(
            name: "deadline passed before start expires", stored: job(1, "a", deadline: .seconds(10)),
            readiness: .ready, isActive: false, secondsAfterSubmission: 10, expected: .expire),
        .init(
            name: "deadline still open is a candidate", stored: job(1, "a", deadline: .seconds(10)),
            readiness: .ready, isActive: false, secondsAfterSubmission: 9, expected: .candidate),
        .init(
            name: "deadline does not apply once started", stored: job(1, "a", deadline: .seconds(10), started: true),
            readiness: .ready, isActive: false, secondsAfterSubmission: 60, expected: .candidate),
        .init(
            name: "undecodable wins over an expired deadline", stored: job(1, "a", deadline: .seconds(1)),
            readiness: .undecodable("x"), isActive: false, secondsAfterSubmission: 60,
            expected: .keep(.undecodablePayload("x"))),
    ]

    @Test("classifies a stored job", arguments: classifyCases)
    func classify(_ test: ClassifyCase) {
        let now = Self.submittedAt.addingTimeInterval(test.secondsAfterSubmission)
        #expect(
            DurableRestorePlan.classify(test.stored, test.readiness, isActive: test.isActive, now: now)
                == test.expected)
    }

    /// The steps a whole pass takes, a candidate's scheduler answer scripted by its id.
    struct PassCase: Sendable, CustomTestStringConvertible {
        let name: String
        let jobs: [StoredJob]
        var readiness: [DurableRestorePlan.Readiness]? = nil
        var keptBefore: [StoredJob] = []
        var answers: [String: DurableRestorePlan.Outcome] = [:]
        let expected: [String]
        var expired: [String] = []
        var discarded: [String] = []
        var testDescription: String { name }
    }

    static let passCases: [PassCase] = [
        .init(name: "all submitted in order", jobs: [job(1, "a"), job(2, "b")], expected: ["a submit", "b submit"]),
        .init(
            name: "a second job with a restored id is kept", jobs: [job(1, "a"), job(2, "a")],
            expected: ["a submit", "a keep: id \"a\" is used by the stored job 1, restored first"]),
        .init(
            name: "a second job with a discarded job's id is submitted", jobs: [job(1, "a"), job(2, "a")],
            answers: ["a": .discarded], expected: ["a submit", "a submit"], discarded: ["a", "a"]),
        .init(
            name: "a rejected job holds its unique key for later ones",
            jobs: [job(1, "a", uniqueKey: "k"), job(2, "b", uniqueKey: "k")], answers: ["a": .rejected("no")],
            expected: [
                "a submit",
                "b keep: uniqueKey \"k\" is held by the stored job a (kind \"k\"), kept until it can be restored",
            ]),
        .init(
            name: "an unknown kind holds the id of a later job", jobs: [job(1, "a"), job(2, "a")],
            readiness: [.unknownKind, .ready],
            expected: [
                "a keep: unknown kind",
                "a keep: id \"a\" is held by the stored job a (kind \"k\"), kept until it can be restored",
            ]),
        .init(
            name: "a job kept by an earlier pass is released when it expires",
            jobs: [job(1, "a", deadline: .seconds(1)), job(2, "a")], keptBefore: [job(1, "a")],
            expected: ["a expire", "a submit"], expired: ["a"]),
        .init(
            name: "a job kept before the pass holds an earlier job's key",
            jobs: [job(1, "b", uniqueKey: "k"), job(2, "a", uniqueKey: "k")], keptBefore: [job(2, "a", uniqueKey: "k")],
            expected: [
                "b keep: uniqueKey \"k\" is held by the stored job a (kind \"k\"), kept until it can be restored",
                "a keep: uniqueKey \"k\" is held by the stored job b (kind \"k\"), kept until it can be restored",
            ]),
    ]

    @Test("runs a pass", arguments: passCases)
    func pass(_ test: PassCase) {
        var kept = DurableHolds()
        for stored in test.keptBefore {
            kept[stored.sequence] = DurableRestorePlan.Hold(
                job: KeptDurableJob(id: stored.id, kind: stored.kind, sequence: stored.sequence, reason: .unknownKind),
                uniqueKey: stored.options.uniqueKey)
        }
        var plan = DurableRestorePlan(
            jobs: test.jobs, readiness: test.readiness ?? test.jobs.map { _ in .ready }, active: [], kept: kept,
            now: Self.submittedAt.addingTimeInterval(5))
        var steps: [String] = []
        while let step = plan.next() {
            let id = test.jobs[step.index].id
            switch step.action {
            case .skip: steps.append("\(id) skip")
            case .expire: steps.append("\(id) expire")
            case .keep(.rejected(let reason)): steps.append("\(id) keep: \(reason)")
            case .keep(.unknownKind): steps.append("\(id) keep: unknown kind")
            case .keep(let reason): steps.append("\(id) keep: \(reason)")
            case .submit:
                steps.append("\(id) submit")
                plan.settle(test.answers[id] ?? .restored)
            }
        }
        #expect(steps == test.expected)
        #expect(plan.expired == test.expired)
        #expect(plan.discarded == test.discarded)
    }

    struct DependencyCase: Sendable, CustomTestStringConvertible {
        let name: String
        let dependsOn: [String]
        var uniqueKeyAppend: DuplicatePolicy? = nil
        let results: [StoredJob.DependencyResult]
        let expectedDependsOn: [String]
        let expectedInputs: [String]
        let expectedFailure: String?
        var testDescription: String { name }
    }

    static let dependencyCases: [DependencyCase] = [
        .init(
            name: "nothing ended", dependsOn: ["a", "b"], results: [], expectedDependsOn: ["a", "b"],
            expectedInputs: [], expectedFailure: nil),
        .init(
            name: "one succeeded with output", dependsOn: ["a", "b"],
            results: [.init(id: "a", resolution: .succeeded, output: Data("1".utf8))], expectedDependsOn: ["b"],
            expectedInputs: ["a"], expectedFailure: nil),
        .init(
            name: "one failed", dependsOn: ["a", "b"],
            results: [
                .init(id: "a", resolution: .succeeded, output: Data("1".utf8)),
                .init(id: "b", resolution: .failed, detail: "boom"),
            ],
            expectedDependsOn: [], expectedInputs: [], expectedFailure: "b"),
        .init(
            name: "the ancestor is named", dependsOn: ["a"],
            results: [.init(id: "a", resolution: .cancelled, ancestor: "root")], expectedDependsOn: [],
            expectedInputs: [], expectedFailure: "root"),
        .init(
            name: "an appendOrReplace predecessor's failure does not propagate", dependsOn: [],
            uniqueKeyAppend: .appendOrReplace, results: [.init(id: "p", resolution: .failed)], expectedDependsOn: [],
            expectedInputs: [], expectedFailure: nil),
        .init(
            name: "an append predecessor's failure propagates", dependsOn: [], uniqueKeyAppend: .append,
            results: [.init(id: "p", resolution: .failed)], expectedDependsOn: [], expectedInputs: [],
            expectedFailure: "p"),
    ]

    @Test("keeps what a restored job needs of its dependencies", arguments: dependencyCases)
    func dependencies(_ test: DependencyCase) {
        var stored = Self.job(3, "c", dependsOn: test.dependsOn)
        if let policy = test.uniqueKeyAppend {
            stored.options.uniqueKey = "key"
            stored.options.onDuplicate = policy
        }
        stored.dependencyResults = test.results
        let dependencies = DurableRestorePlan.dependencies(of: stored)
        #expect(dependencies.dependsOn == test.expectedDependsOn)
        #expect(dependencies.inputs.map(\.id) == test.expectedInputs)
        #expect(dependencies.failure?.id == test.expectedFailure)
    }
}
