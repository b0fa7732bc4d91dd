/// The part of a job's state the scheduler decides; the live blockers of a waiting job are read from
/// the environment when asked.
package enum JobPhase: Sendable, Hashable {
    /// Waiting for its requirements, a slot, or its turn.
    case waiting
    /// Waiting out a delay or a backoff before the given attempt.
    case delayed(attempt: Int)
    /// Running the given attempt.
    case running(attempt: Int)
    /// Finished in the given terminal state.
    case finished(SyncJobState)
}
