/// When ``CloudAccountSource`` asks CloudKit again after a transient error: exponential backoff from
/// ``initial``, doubling up to ``maximum``, at most ``maxAttempts`` checks per change; a longer delay
/// that CloudKit suggests (`retryAfterSeconds`) wins.
public struct CloudAccountRetry: Sendable, Hashable {
    /// The delay before the first retry.
    public var initial: Duration
    /// The longest delay between two checks.
    public var maximum: Duration
    /// The most checks for one change, the first included; 1 means never retry.
    public var maxAttempts: Int

    /// Creates a retry rule; the defaults retry after 2 s, 4 s, 8 s and 16 s.
    public init(initial: Duration = .seconds(2), maximum: Duration = .seconds(300), maxAttempts: Int = 5) {
        self.initial = initial
        self.maximum = maximum
        self.maxAttempts = maxAttempts
    }

    /// The delay before check number `attempt + 1` after check `attempt` (1-based) failed with `facts`.
    func delay(after attempt: Int, facts: CloudKitErrorFacts) -> Duration {
        var delay = initial
        for _ in 1..<max(attempt, 1) where delay < maximum {
            delay *= 2
        }
        delay = min(delay, maximum)
        if let suggested = facts.retryAfterSeconds, suggested > 0 {
            delay = max(delay, .milliseconds(Int64(suggested * 1000)))
        }
        return delay
    }
}
