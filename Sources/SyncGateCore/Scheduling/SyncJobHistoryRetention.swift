/// How many finished jobs the scheduler keeps for queries (``SyncScheduler/jobs(matching:)``) and for
/// dependencies submitted after their dependency finished: at most ``maxCount``, none older than
/// ``maxAge``. The oldest go first.
public struct SyncJobHistoryRetention: Sendable, Hashable {
    /// The largest number of finished jobs kept; 0 keeps none.
    public var maxCount: Int
    /// How long after finishing a job is kept; `nil` for no limit.
    public var maxAge: Duration?

    /// Creates a retention.
    ///
    /// - Parameters:
    ///   - maxCount: the largest number of finished jobs kept.
    ///   - maxAge: how long after finishing a job is kept.
    public init(maxCount: Int = 100, maxAge: Duration? = nil) {
        self.maxCount = maxCount
        self.maxAge = maxAge
    }

    /// Keeps no finished job.
    public static let none = SyncJobHistoryRetention(maxCount: 0)

    /// The first problem, naming the field and its value, or `nil` when valid.
    var validationError: String? {
        if maxCount < 0 { return "history.maxCount must not be negative, got \(maxCount)" }
        if let maxAge, maxAge <= .zero { return "history.maxAge must be positive, got \(maxAge)" }
        return nil
    }
}
