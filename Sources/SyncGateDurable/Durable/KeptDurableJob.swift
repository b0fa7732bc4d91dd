import SyncGateCore

/// A stored job that was not restored: it stays in the store, untouched, until it can be.
public struct KeptDurableJob: Sendable, Hashable, CustomStringConvertible {
    /// Why the job was not restored.
    public enum Reason: Sendable, Hashable {
        /// No handler is registered for its kind.
        case unknownKind
        /// Its payload does not decode as the registered type; the message says why.
        case undecodablePayload(String)
        /// The scheduler rejected it (its id is used by an unfinished job, say).
        case rejected(String)
    }

    /// The job's identifier.
    public var id: SyncJob.ID
    /// The job's kind.
    public var kind: String
    /// The job's store sequence number.
    public var sequence: UInt64
    /// Why the job was not restored.
    public var reason: Reason

    /// A line such as `upload-7 (kind "upload"): payload does not decode: …`.
    public var description: String {
        let what: String
        switch reason {
        case .unknownKind: what = "no handler is registered for this kind"
        case .undecodablePayload(let message): what = "payload does not decode: \(message)"
        case .rejected(let message): what = "rejected by the scheduler: \(message)"
        }
        return "\(id) (kind \"\(kind)\"): \(what)"
    }
}
