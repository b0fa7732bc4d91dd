import SyncGateCore

/// A journal write of the durable layer that failed after submission: a job's attempt or resolution
/// record that is not in the store yet.
///
/// The durable scheduler keeps the record and writes it again, in order, before every later record
/// and about once a second while the process lives (or on
/// ``DurableScheduler/retryPendingWrites()``). Until it is written, a restart brings the job back in
/// the state of its last written record: a job whose resolution was lost runs again.
public struct DurableWriteFailure: Sendable, Hashable, CustomStringConvertible {
    /// The job whose record failed.
    public var jobID: SyncJob.ID
    /// The job's store sequence number.
    public var sequence: UInt64
    /// What the record says, such as `resolved (cancelled)`.
    public var record: String
    /// The store's error.
    public var error: String

    /// Creates a write failure.
    public init(jobID: SyncJob.ID, sequence: UInt64, record: String, error: String) {
        self.jobID = jobID
        self.sequence = sequence
        self.record = record
        self.error = error
    }

    /// A line such as `job up-1: writing resolved (cancelled) failed, will retry: …`.
    public var description: String {
        "job \(jobID): writing \(record) failed, will retry: \(error)"
    }
}
