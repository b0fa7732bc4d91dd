import Foundation
import SyncGateCore

extension DurableSchedulerStateMachine {
    /// The first duration option longer than ``DurableScheduler/maximumDuration``, naming the field and the
    /// value.
    static func rangeError(_ options: SyncJobOptions) -> SyncJobRefusal? {
        let maximum = DurableScheduler.maximumDuration
        guard let (field, value) = options.firstDuration(where: { $0 > maximum }) else { return nil }
        return .option(
            field, "\(value)", "\(field) must be at most \(maximum) (100 years) in a durable job, got \(value)")
    }

    /// The refusal of a job whose names take more than ``DurableScheduler/maximumNamesSize`` together,
    /// naming the field that takes the most and its size in bytes.
    static func sizeError(id: SyncJob.ID, options: SyncJobOptions) -> SyncJobRefusal? {
        func size(_ names: some Sequence<String>) -> Int { names.reduce(0) { $0 + $1.utf8.count + 8 } }
        let fields: [(field: String, bytes: Int)] = [
            ("id", size([id])),
            ("uniqueKey", size(options.uniqueKey.map { [$0] } ?? [])),
            ("serialGroup", size(options.serialGroup.map { [$0] } ?? [])),
            ("tags", size(options.tags)),
            ("conditions", size(options.conditions.map(\.name))),
            ("dependsOn", size(options.dependsOn)),
            ("fileTrigger.paths", size(options.fileTrigger?.paths ?? [])),
            ("allowedNetworks", size(options.allowedNetworks.map { ["\($0)"] } ?? [])),
        ]
        let limit = DurableScheduler.maximumNamesSize
        guard fields.reduce(0, { $0 + $1.bytes }) > limit, let largest = fields.max(by: { $0.bytes < $1.bytes })
        else { return nil }
        return .option(
            largest.field, "\(largest.bytes) bytes",
            "\(largest.field) takes \(largest.bytes) bytes: a durable job's names (id, uniqueKey, serialGroup, tags, "
                + "conditions, dependsOn, fileTrigger.paths, allowedNetworks) may take at most \(limit) bytes "
                + "together, so that its record fits the journal")
    }

    /// Why a new durable job may not have its dependencies, naming the field and the value: each job it
    /// depends on (or, as `appendPredecessor`, is appended to) must be an active durable job, so that a
    /// restart finds it in the store.
    func dependencyError(_ options: SyncJobOptions, appendPredecessor: SyncJob.ID?) -> SyncJobRefusal? {
        if let id = options.dependsOn.first(where: { !active.containsJob(id: $0) }) {
            return .option(
                "dependsOn", "\"\(id)\"",
                "dependsOn names \"\(id)\", which is not an unfinished durable job of this scheduler: a durable "
                    + "job may depend only on those, so that a restart finds them", relatedTo: id)
        }
        if let uniqueKey = options.uniqueKey, let previous = appendPredecessor, !active.containsJob(id: previous) {
            return .option(
                "onDuplicate", "\(options.onDuplicate)",
                "onDuplicate \(options.onDuplicate) would follow job \"\(previous)\" of uniqueKey \"\(uniqueKey)\", "
                    + "which is not a durable job", relatedTo: previous)
        }
        return nil
    }

    /// Whether the options append to their unique key's last job.
    static func appends(_ options: SyncJobOptions) -> Bool {
        options.uniqueKey != nil && (options.onDuplicate == .append || options.onDuplicate == .appendOrReplace)
    }

    /// The refusal of a new job whose dependency `ended` after the job was checked and before its edges were
    /// recorded: no record of how it ended would reach the job's.
    static func endedDependencyRefusal(_ id: SyncJob.ID, ended: SyncJob.ID) -> SyncJobRefusal {
        SyncJobRefusal(
            jobID: id, field: "dependsOn", value: "\"\(ended)\"", relatedJobs: [ended],
            reason: "dependsOn names \"\(ended)\", which ended while this job was submitted: a durable job "
                + "may depend only on unfinished durable jobs of this scheduler")
    }
}

extension SyncJobRefusal {
    /// ``option(_:_:_:)`` naming the job `related` that the refusal is about.
    fileprivate static func option(_ field: String, _ value: String, _ reason: String, relatedTo related: SyncJob.ID)
        -> SyncJobRefusal
    {
        var refusal = SyncJobRefusal.option(field, value, reason)
        refusal.relatedJobs = [related]
        return refusal
    }
}
