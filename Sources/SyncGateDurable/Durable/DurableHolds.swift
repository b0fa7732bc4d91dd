import SyncGateCore

/// The jobs kept in the store without running, by sequence number, indexed by the ids and unique keys
/// they hold.
///
/// A kept job holds its id and unique key as an unfinished job would: a new or restored job may take
/// neither. ``holder(of:uniqueKey:excluding:)`` finds the holder in sequence order, so the answer is the
/// same however many jobs are kept; a lookup costs a hash per index, not a pass over the kept jobs.
/// Invariant: the two indexes list exactly the sequences of ``bySequence`` with that id or unique key.
struct DurableHolds: Sendable {
    /// The kept jobs, by sequence number.
    private(set) var bySequence: [UInt64: DurableRestorePlan.Hold] = [:]
    private var sequencesByID: [SyncJob.ID: Set<UInt64>] = [:]
    private var sequencesByKey: [String: Set<UInt64>] = [:]

    /// No jobs kept.
    init() {}

    /// The kept jobs in sequence order.
    var jobs: [KeptDurableJob] { bySequence.sorted { $0.key < $1.key }.map(\.value.job) }

    /// The job kept under `sequence`; setting `nil` lets go of it, setting a hold replaces the one there.
    subscript(sequence: UInt64) -> DurableRestorePlan.Hold? {
        get { bySequence[sequence] }
        set {
            if let old = bySequence.removeValue(forKey: sequence) {
                Self.remove(sequence, from: &sequencesByID, at: old.job.id)
                if let key = old.uniqueKey { Self.remove(sequence, from: &sequencesByKey, at: key) }
            }
            guard let newValue else { return }
            bySequence[sequence] = newValue
            sequencesByID[newValue.job.id, default: []].insert(sequence)
            if let key = newValue.uniqueKey { sequencesByKey[key, default: []].insert(sequence) }
        }
    }

    /// Why a job may not take `id` or `uniqueKey`: the kept job (other than `excluding`) of lowest
    /// sequence that holds either; its id is named first when it holds both. `nil` when none does.
    func holder(of id: SyncJob.ID, uniqueKey: String?, excluding: UInt64? = nil) -> SyncJobRefusal? {
        func first(_ sequences: Set<UInt64>?) -> UInt64? {
            sequences?.lazy.filter { $0 != excluding }.min()
        }
        let candidates = [first(sequencesByID[id]), uniqueKey.flatMap { first(sequencesByKey[$0]) }]
        guard let sequence = candidates.compactMap({ $0 }).min(), let hold = bySequence[sequence] else {
            return nil
        }
        let kept = hold.job
        if kept.id == id {
            return SyncJobRefusal(
                jobID: id, field: "id", value: "\"\(id)\"", relatedJobs: [kept.id],
                reason: "id \"\(id)\" is held by the stored job \(kept.id) (kind \"\(kept.kind)\"), kept until "
                    + "it can be restored")
        }
        let key = uniqueKey ?? ""
        return SyncJobRefusal(
            jobID: id, field: "uniqueKey", value: "\"\(key)\"", relatedJobs: [kept.id],
            reason: "uniqueKey \"\(key)\" is held by the stored job \(kept.id) (kind \"\(kept.kind)\"), kept until "
                + "it can be restored")
    }

    private static func remove<Key: Hashable>(_ sequence: UInt64, from index: inout [Key: Set<UInt64>], at key: Key) {
        index[key]?.remove(sequence)
        if index[key]?.isEmpty == true { index[key] = nil }
    }
}
