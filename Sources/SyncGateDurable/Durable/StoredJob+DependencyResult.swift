import Foundation
import SyncGateCore

extension StoredJob {
    /// How a job that a stored job depends on (or was appended to) ended, as the journal keeps it.
    public struct DependencyResult: Sendable, Hashable {
        /// The dependency's identifier.
        public var id: SyncJob.ID
        /// How it ended: `succeeded`, or how the job whose failure it passed on ended (see ``ancestor``).
        public var resolution: JobRecord.Resolution
        /// Its output encoded as JSON, when it succeeded and set one.
        public var output: Data?
        /// When the dependency failed because a job it depended on did not succeed: that job, which
        /// ``resolution`` and ``detail`` are about; `nil` when the dependency itself ended that way.
        public var ancestor: SyncJob.ID?
        /// For a failure, the error's description; empty otherwise.
        public var detail: String

        /// Creates a result.
        public init(
            id: SyncJob.ID, resolution: JobRecord.Resolution, output: Data? = nil, ancestor: SyncJob.ID? = nil,
            detail: String = ""
        ) {
            self.id = id
            self.resolution = resolution
            self.output = output
            self.ancestor = ancestor
            self.detail = detail
        }

        /// The job a dependent names as the one that did not succeed.
        var culprit: SyncJob.ID { ancestor ?? id }
    }
}

extension JobRecord.Resolution {
    /// The resolution of a job that ended with `outcome`.
    init(outcome: SyncJobOutcome) {
        switch outcome {
        case .succeeded: self = .succeeded
        case .failed: self = .failed
        case .cancelled: self = .cancelled
        case .expired: self = .expired
        }
    }
}
