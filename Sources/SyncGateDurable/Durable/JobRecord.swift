import Foundation
import SyncGateCore

/// One entry of a durable-job journal: a job's submission, the start or end of an attempt, or its end.
public enum JobRecord: Sendable, Hashable {
    /// How a job left the store.
    public enum Resolution: UInt8, Sendable, Hashable, CaseIterable {
        /// The job succeeded.
        case succeeded = 1
        /// The job failed for good.
        case failed = 2
        /// The job was cancelled.
        case cancelled = 3
        /// The job did not start before its start deadline.
        case expired = 4
        /// The submission was not accepted after it was written (a duplicate unique key, say).
        case discarded = 5
    }

    /// A job was submitted; also used by compaction to write a job with its progress so far.
    case submitted(StoredJob)
    /// An attempt of the job with the given sequence number started.
    case attemptStarted(sequence: UInt64, attempt: Int)
    /// An attempt ended without ending the job: `failures` attempts have failed so far, and a retry
    /// waits until `retryAt` (`nil` when the attempt was requeued because requirements were lost).
    case attemptFinished(sequence: UInt64, failures: Int, retryAt: Date?)
    /// The job ended and leaves the store.
    case resolved(sequence: UInt64, resolution: Resolution)
    /// A period of a periodic job ended (its run returned, or its window closed): the series goes on
    /// from the period that begins at `anchor`, with the counts so far. Written from format version 2.
    case periodEnded(sequence: UInt64, anchor: Date, periods: SyncJobInfo.Periods)
    /// A job that the job with the given sequence number depends on (or was appended to) ended: its
    /// result, with its output when it succeeded. Written before the dependency's own `resolved`
    /// record, so a restart never loses an output a dependent needs. Written from format version 3.
    case dependencyEnded(sequence: UInt64, result: StoredJob.DependencyResult)
    /// The running attempt of the job with the given sequence number is being stopped, for `reason`
    /// (``StoredJob/lastStopReason``); how it ends follows in its own record. Written from format
    /// version 4.
    case attemptStopped(sequence: UInt64, reason: SyncJobStopReason)
    /// The wall clock was set back before the span the calendar job's series had planned through: the
    /// series goes on from `anchor` (where the clock was set back to), with the counts so far, and does not
    /// plan the occurrences of `heldSpan` again (``StoredJob/calendarHeldSpan``). Written from format
    /// version 8.
    case calendarReplanned(sequence: UInt64, anchor: Date, periods: SyncJobInfo.Periods, heldSpan: ClosedRange<Date>)

    /// The sequence number of the job the record is about.
    public var sequence: UInt64 {
        switch self {
        case .submitted(let job): job.sequence
        case .attemptStarted(let sequence, _), .attemptFinished(let sequence, _, _), .resolved(let sequence, _),
            .periodEnded(let sequence, _, _), .dependencyEnded(let sequence, _), .attemptStopped(let sequence, _),
            .calendarReplanned(let sequence, _, _, _):
            sequence
        }
    }
}
