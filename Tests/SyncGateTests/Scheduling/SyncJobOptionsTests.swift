import Foundation
import SyncGateTesting
import Testing

@testable import SyncGateCore
@testable import SyncGateDurable

/// One value type for a job's options: carried by every kind of job, validated in one place, encoded
/// in one place.
@Suite("Job options", .timeLimit(.minutes(1)))
struct SyncJobOptionsTests {
    /// Every option changed from its default.
    static let changed = SyncJobOptions(
        requires: .largeTransfer, conditions: ["db-migrated"], priority: .high, delay: .seconds(10),
        startDeadline: .seconds(600), runTimeout: .milliseconds(1500),
        retry: .exponential(initial: .seconds(2), maxAttempts: 4, jitter: 0.25), onRequirementsLost: .keepRunning,
        uniqueKey: "photo-42", onDuplicate: .replace, serialGroup: "uploads", tags: ["photos"])

    @Test("each job initializer sets the options its parameters name; options read and write as properties")
    func carriedByEveryJob() {
        let options = Self.changed
        var job = SyncJob(
            requires: options.requirements, conditions: options.conditions, priority: options.priority,
            startDeadline: options.startDeadline, runTimeout: options.runTimeout, retry: options.retry,
            onRequirementsLost: options.onRequirementsLost, uniqueKey: options.uniqueKey,
            onDuplicate: options.onDuplicate, serialGroup: options.serialGroup, tags: options.tags,
            dependsOn: ["export"]
        ) { _ in }
        #expect(job.dependsOn == ["export"])
        job.dependsOn = []
        #expect(job.delay == nil)
        job.delay = options.delay
        #expect(job.options == options)
        var durable = DurableJob(
            kind: "upload", payload: 1, requires: options.requirements, conditions: options.conditions,
            retry: options.retry, uniqueKey: options.uniqueKey, onDuplicate: options.onDuplicate,
            serialGroup: options.serialGroup, dependsOn: ["export"])
        #expect(
            durable.options
                == SyncJobOptions(
                    requires: options.requirements, conditions: options.conditions, retry: options.retry,
                    uniqueKey: options.uniqueKey, onDuplicate: options.onDuplicate, serialGroup: options.serialGroup,
                    dependsOn: ["export"]))
        durable.options = options
        #expect(durable.runTimeout == options.runTimeout)
        job.retry = .none
        durable.tags = []
        #expect(job.options.retry == .none)
        #expect(durable.options.tags.isEmpty)
        #expect(SyncJob { _ in }.options == SyncJobOptions())
        #expect(DurableJob(kind: "k", payload: 1).options == SyncJobOptions())
    }

    @Test("a queued job shares the default options box unless it changes an option beyond the inline ones")
    func sharedDefaults() {
        let plain = SyncJob(id: "a", options: SyncJobOptions(requires: .largeTransfer, priority: .low)) { _ in }.spec
        let other = SyncJob(id: "b", options: SyncJobOptions(conditions: ["x"])) { _ in }.spec
        #expect(plain.requirements == .largeTransfer)
        #expect(plain.priority == .low)
        #expect(other.conditions == ["x"])
        #expect(plain.retry == .none)
        let changed = SyncJob(id: "c", options: Self.changed) { _ in }.spec
        #expect(changed.uniqueKey == "photo-42")
        #expect(changed.requirements == .largeTransfer)
        #expect(changed.delay == .seconds(10))
    }

    static let fileTriggered: SyncJobOptions = {
        var options = SyncJobOptions()
        options.fileTrigger = SyncFileTrigger(paths: ["/a", "/b/c.txt"], quietPeriod: .milliseconds(1_500))
        return options
    }()

    static let oneOptionEach: [(String, SyncJobOptions)] = [
        ("requirements", SyncJobOptions(requires: [.network, .externalPower])),
        ("conditions", SyncJobOptions(conditions: ["a", "b"])),
        ("priority", SyncJobOptions(priority: .low)),
        ("delay", SyncJobOptions(delay: .milliseconds(250))),
        ("startDeadline", SyncJobOptions(startDeadline: .seconds(3600))),
        ("runTimeout", SyncJobOptions(runTimeout: .nanoseconds(1))),
        ("retry fixed", SyncJobOptions(retry: .fixed(delay: .seconds(5), maxAttempts: 3))),
        ("retry exponential", SyncJobOptions(retry: .exponential(resetWhenRequirementsReturn: true))),
        ("onRequirementsLost", SyncJobOptions(onRequirementsLost: .keepRunning)),
        ("uniqueKey", SyncJobOptions(uniqueKey: "k", onDuplicate: .keepExisting)),
        ("onDuplicate", SyncJobOptions(uniqueKey: "k", onDuplicate: .replace)),
        ("serialGroup", SyncJobOptions(serialGroup: "g")),
        ("tags", SyncJobOptions(tags: ["t1", "t2"])),
        ("fileTrigger", fileTriggered),
        ("all", changed),
    ]

    @Test("each option survives the journal codec", arguments: oneOptionEach)
    func journalRoundTrip(name: String, options: SyncJobOptions) {
        let job = StoredJob(
            sequence: 1, id: "j", kind: "k", payload: Data(), submittedAt: Date(timeIntervalSince1970: 1_700_000_000),
            options: options)
        let bytes = JournalCodec.header + JournalCodec.frame(.submitted(job))
        let scan = bytes.withUnsafeBytes { JournalScan($0, path: "journal") }
        guard case .submitted(let decoded)? = scan.records.first else {
            Issue.record("\(name): no submitted record, issues \(scan.issues)")
            return
        }
        #expect(decoded.options == options, "\(name)")
    }
}
