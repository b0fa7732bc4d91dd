/// The moment one job body started, and how many times a body marked it.
///
/// Written by one job body and read by the driver only after it has awaited the job's end (its handle's
/// outcome or its task's value), which orders the write before the read.
final class Stamp: @unchecked Sendable {
    private(set) var instant: ContinuousClock.Instant?
    private(set) var marks = 0

    /// Records the current instant; the first thing a measured body does.
    func mark() {
        let now = ContinuousClock.now
        instant = now
        marks += 1
    }

    /// The latency from `start` to the mark; throws unless the body marked exactly once.
    func latency(from start: ContinuousClock.Instant, scenario: String) throws(BenchmarkFailure) -> Duration {
        guard marks == 1, let instant else {
            throw BenchmarkFailure(scenario: scenario, message: "a measured body ran \(marks) times, expected once")
        }
        return start.duration(to: instant)
    }
}
