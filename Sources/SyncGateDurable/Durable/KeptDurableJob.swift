import SyncGateCore

/// A stored job that was not restored: it stays in the store, untouched, until it can be, or until
/// ``DurableScheduler/discardKeptJob(id:)`` removes it.
public struct KeptDurableJob: Sendable, Hashable, CustomStringConvertible {
    /// Why the job was not restored.
    public enum Reason: Sendable, Hashable, CustomStringConvertible {
        /// No handler is registered for its kind.
        case unknownKind
        /// Its payload does not decode as the registered type; the message says why.
        case undecodablePayload(String)
        /// The scheduler rejected it (its id is used by an unfinished job, say).
        case rejected(String)

        /// A phrase such as `payload does not decode: …` or `rejected by the scheduler: …`.
        public var description: String {
            switch self {
            case .unknownKind: "no handler is registered for this kind"
            case .undecodablePayload(let message): "payload does not decode: \(message)"
            case .rejected(let message): "rejected by the scheduler: \(message)"
            }
        }
    }

    /// The job's identifier.
    public var id: SyncJob.ID
    /// The job's kind.
    public var kind: String
    /// The job's store sequence number.
    public var sequence: UInt64
    /// Why the job was not restored.
    public var reason: Reason
    /// The job's unique key (``SyncGate/SyncJobOptions/uniqueKey``), as stored.
    public var uniqueKey: String? = nil
    /// The job's tags (``SyncGate/SyncJobOptions/tags``), as stored.
    public var tags: Set<String> = []

    /// A line such as `upload-7 (kind "upload"): payload does not decode: …`.
    public var description: String {
        "\(id) (kind \"\(kind)\"): \(reason)"
    }
}
