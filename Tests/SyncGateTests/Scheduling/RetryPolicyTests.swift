import Testing

@testable import SyncGateCore

/// `RetryPolicy.delay(afterFailures:random:)` over a table: fixed and exponential backoffs, jitter at
/// both ends, the cap, and backoffs whose delays pass what an `Int64` of nanoseconds holds (they trapped).
@Suite("Retry policy delays", .timeLimit(.minutes(1)))
struct RetryPolicyTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var policy: RetryPolicy
        var failures: Int
        var random: Double
        var delay: Duration
        var testDescription: String { name }
    }

    static let never = Duration.seconds(Int64.max)
    static let growing = RetryPolicy.exponential(
        initial: .seconds(1), multiplier: 10, maxDelay: never, maxAttempts: 100, jitter: 0)

    static let cases: [Case] = [
        Case(
            name: "fixed", policy: .fixed(delay: .seconds(30), maxAttempts: 3), failures: 2, random: 0.9,
            delay: .seconds(30)),
        Case(
            name: "exponential, first failure", policy: .exponential(jitter: 0), failures: 1, random: 0,
            delay: .seconds(1)),
        Case(
            name: "exponential, fourth failure", policy: .exponential(jitter: 0), failures: 4, random: 0,
            delay: .seconds(8)),
        Case(
            name: "exponential, capped", policy: .exponential(jitter: 0), failures: 20, random: 0,
            delay: .seconds(300)),
        Case(
            name: "jitter, lowest draw", policy: .exponential(jitter: 0.5), failures: 2, random: 0,
            delay: .seconds(1)),
        Case(
            name: "jitter, middle draw", policy: .exponential(jitter: 0.5), failures: 2, random: 0.5,
            delay: .seconds(2)),
        Case(
            name: "jitter above the cap is the cap", policy: .exponential(jitter: 0.5), failures: 20, random: 1,
            delay: .seconds(300)),
        Case(
            name: "uncapped, past 292 years", policy: growing, failures: 12, random: 0, delay: .seconds(100_000_000_000)
        ),
        Case(name: "uncapped, past .seconds(Int64.max)", policy: growing, failures: 40, random: 0, delay: never),
        Case(
            name: "uncapped with jitter, past .seconds(Int64.max)",
            policy: .exponential(initial: .seconds(1), multiplier: 10, maxDelay: never, maxAttempts: 100),
            failures: 30, random: 0.9, delay: never),
        Case(
            name: "a fixed 'never' with jitter, upper draw",
            policy: RetryPolicy(backoff: .fixed(never), maxAttempts: 3, jitter: 0.5), failures: 1, random: 0.9,
            delay: never),
        Case(
            name: "a fixed 'never' with jitter, lowest draw",
            policy: RetryPolicy(backoff: .fixed(never), maxAttempts: 3, jitter: 0.5), failures: 1, random: 0,
            delay: .seconds(Double(Int64.max) / 2)),
        // Failure counts at the ends of `Int` (a restored job's count, or a caller's): the exponent's
        // conversion and `failures - 1` trapped.
        Case(
            name: "Int.max failures", policy: .exponential(jitter: 0), failures: .max, random: 0, delay: .seconds(300)),
        Case(name: "Int.min failures", policy: .exponential(jitter: 0), failures: .min, random: 0, delay: .seconds(1)),
        // A multiplier of 1 never grows: the power was a loop of `failures` steps.
        Case(
            name: "multiplier 1, Int.max failures",
            policy: .exponential(initial: .seconds(3), multiplier: 1, maxDelay: never, jitter: 0), failures: .max,
            random: 0, delay: .seconds(3)),
        Case(
            name: "multiplier 1.5, tenth failure",
            policy: .exponential(initial: .seconds(1), multiplier: 1.5, maxDelay: never, jitter: 0), failures: 10,
            random: 0, delay: .saturating(seconds: 38.443359375)),
        Case(
            name: "a fixed delay past .seconds(Int64.max) is .seconds(Int64.max)",
            policy: .fixed(delay: Duration(attoseconds: .max), maxAttempts: 2), failures: 1, random: 0, delay: never),
    ]

    @Test(arguments: cases)
    func delay(_ test: Case) {
        #expect(test.policy.delay(afterFailures: test.failures, random: test.random) == test.delay)
    }

    @Test("the description says when a backoff ends as the requirements return")
    func descriptionNamesTheReset() {
        var policy = RetryPolicy.fixed(delay: .seconds(5), maxAttempts: 3)
        #expect(policy.description == "fixed 5.0 seconds, 3 attempts, jitter 0.0")
        policy.resetWhenRequirementsReturn = true
        #expect(policy.description == "fixed 5.0 seconds, 3 attempts, jitter 0.0, reset when requirements return")
    }
}
