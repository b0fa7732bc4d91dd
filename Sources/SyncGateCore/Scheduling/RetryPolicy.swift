/// How a job that throws is tried again: how many attempts, and how long to wait between them.
///
/// After a failed attempt the job is ``SyncJobState/delayed(attempt:)`` for the backoff, then waits for
/// its requirements again. `SyncJobError.doNotRetry(_:)` thrown by the operation ends the job at once.
public struct RetryPolicy: Sendable, Hashable, CustomStringConvertible {
    /// The shape of the backoff.
    public enum Backoff: Sendable, Hashable {
        /// The same delay after every failure.
        case fixed(Duration)
        /// `initial × multiplier^(failures − 1)`, capped at `maxDelay`.
        case exponential(initial: Duration, multiplier: Double, maxDelay: Duration)
    }

    /// The shape of the backoff.
    public var backoff: Backoff
    /// The number of attempts in all, the first included; at least 1.
    public var maxAttempts: Int
    /// The fraction (0...1) by which each delay is randomly shortened or lengthened.
    public var jitter: Double
    /// Whether a backoff ends early when the job's requirements went unmet and then met again.
    public var resetWhenRequirementsReturn: Bool

    /// Creates a policy from its parts; prefer the static factories.
    public init(backoff: Backoff, maxAttempts: Int, jitter: Double = 0, resetWhenRequirementsReturn: Bool = false) {
        self.backoff = backoff
        self.maxAttempts = maxAttempts
        self.jitter = jitter
        self.resetWhenRequirementsReturn = resetWhenRequirementsReturn
    }

    /// One attempt, no retry.
    public static let none = RetryPolicy(backoff: .fixed(.zero), maxAttempts: 1)

    /// Exponential backoff with jitter.
    ///
    /// - Parameters:
    ///   - initial: the delay after the first failure.
    ///   - multiplier: the growth factor per failure (at least 1).
    ///   - maxDelay: the cap on any delay.
    ///   - maxAttempts: the number of attempts in all, the first included.
    ///   - jitter: the fraction (0...1) by which each delay is randomly shortened or lengthened.
    ///   - resetWhenRequirementsReturn: end a backoff early when the requirements went and came back.
    public static func exponential(
        initial: Duration = .seconds(1),
        multiplier: Double = 2,
        maxDelay: Duration = .seconds(300),
        maxAttempts: Int = 5,
        jitter: Double = 0.1,
        resetWhenRequirementsReturn: Bool = false
    ) -> RetryPolicy {
        RetryPolicy(
            backoff: .exponential(initial: initial, multiplier: multiplier, maxDelay: maxDelay),
            maxAttempts: maxAttempts,
            jitter: jitter,
            resetWhenRequirementsReturn: resetWhenRequirementsReturn
        )
    }

    /// The same delay between attempts, without jitter.
    public static func fixed(delay: Duration, maxAttempts: Int) -> RetryPolicy {
        RetryPolicy(backoff: .fixed(delay), maxAttempts: maxAttempts)
    }

    /// The delay after the given number of failed attempts.
    ///
    /// An exponential backoff's delay never exceeds its `maxDelay`, and no delay exceeds
    /// `.seconds(Int64.max)`, however large the policy's durations (a `maxDelay` of `.seconds(Int64.max)`
    /// is a backoff that grows without bound).
    ///
    /// - Parameters:
    ///   - failures: how many attempts have failed so far (1 after the first failure).
    ///   - random: a number in `0..<1`; 0.5 gives the delay without jitter.
    public func delay(afterFailures failures: Int, random: Double) -> Duration {
        let base: Duration
        switch backoff {
        case .fixed(let delay):
            base = min(delay, .seconds(Int64.max))
        case .exponential(let initial, let multiplier, let maxDelay):
            let seconds = initial.inSeconds * Self.power(multiplier, failures > 1 ? failures - 1 : 0)
            base = seconds >= maxDelay.inSeconds ? maxDelay : .saturating(seconds: seconds)
        }
        guard jitter > 0 else { return base }
        let factor = 1 - jitter + 2 * jitter * random.clampedToUnitInterval
        let jittered = Duration.saturating(seconds: base.inSeconds * factor)
        if case .exponential(_, _, let maxDelay) = backoff, jittered > maxDelay { return maxDelay }
        return jittered
    }

    /// The first problem with the policy's values, naming the field, or `nil` when it is valid.
    package var validationError: SyncJobRefusal? {
        if maxAttempts < 1 {
            return .option(
                "retry.maxAttempts", "\(maxAttempts)", "retry.maxAttempts must be at least 1, got \(maxAttempts)")
        }
        if !(0...1).contains(jitter) {
            return .option("retry.jitter", "\(jitter)", "retry.jitter must be in 0...1, got \(jitter)")
        }
        switch backoff {
        case .fixed(let delay):
            if delay < .zero {
                return .option("retry.delay", "\(delay)", "retry delay must not be negative, got \(delay)")
            }
        case .exponential(let initial, let multiplier, let maxDelay):
            if initial <= .zero {
                return .option("retry.initial", "\(initial)", "retry.initial must be positive, got \(initial)")
            }
            if !(multiplier >= 1) || !multiplier.isFinite {
                return .option(
                    "retry.multiplier", "\(multiplier)", "retry.multiplier must be at least 1, got \(multiplier)")
            }
            if maxDelay < initial {
                return .option(
                    "retry.maxDelay", "\(maxDelay)", "retry.maxDelay must be at least retry.initial, got \(maxDelay)")
            }
        }
        return nil
    }

    /// A summary such as `exponential 1.0 seconds ×2 ≤ 300.0 seconds, 5 attempts, jitter 0.1`, ending in
    /// `, reset when requirements return` when ``resetWhenRequirementsReturn`` is set.
    public var description: String {
        if maxAttempts == 1 { return "no retry" }
        let shape: String
        switch backoff {
        case .fixed(let delay): shape = "fixed \(delay)"
        case .exponential(let initial, let multiplier, let maxDelay):
            shape = "exponential \(initial) ×\(multiplier) ≤ \(maxDelay)"
        }
        let reset = resetWhenRequirementsReturn ? ", reset when requirements return" : ""
        return "\(shape), \(maxAttempts) attempts, jitter \(jitter)\(reset)"
    }

    /// `base` to the power of `exponent` (at least 0), by squaring: at most 63 steps whatever the exponent,
    /// and infinity once the result passes what a `Double` holds.
    private static func power(_ base: Double, _ exponent: Int) -> Double {
        var result = 1.0
        var factor = base
        var remaining = exponent
        while remaining > 0 && result.isFinite {
            if remaining & 1 == 1 { result *= factor }
            remaining >>= 1
            if remaining > 0 { factor *= factor }
        }
        return result
    }
}
