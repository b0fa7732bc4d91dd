/// What happens to a running job when its requirements stop holding.
public enum RequirementsLostPolicy: Sendable, Hashable {
    /// Let the attempt finish.
    case keepRunning
    /// Cancel the attempt and put the job back to waiting, without consuming an attempt.
    ///
    /// If the operation ignores cancellation and returns normally, the job has succeeded; if it throws
    /// anything, the job waits for its requirements again.
    case cancelAndRequeue
}
