#if canImport(Glibc)
    import Glibc
#endif

/// The moment one job body started, the thread it started on, and how many times a body marked it.
///
/// Written by one job body and read by the driver only after it has awaited the job's end (its handle's
/// outcome or its task's value), which orders the write before the read.
final class Stamp: @unchecked Sendable {
    private(set) var instant: ContinuousClock.Instant?
    /// The thread that marked last (its `pthread_self()`).
    private(set) var thread: UInt = 0
    private(set) var marks = 0

    /// Records the current instant and thread; the first thing a measured body does.
    func mark() {
        let now = ContinuousClock.now
        instant = now
        thread = Stamp.currentThread()
        marks += 1
    }

    /// The calling thread, as `pthread_self()`.
    static func currentThread() -> UInt {
        #if os(Linux)
            UInt(pthread_self())
        #else
            UInt(bitPattern: pthread_self())
        #endif
    }

    /// The latency from `start` to the mark; throws unless the body marked exactly once.
    func latency(from start: ContinuousClock.Instant, scenario: String) throws(BenchmarkFailure) -> Duration {
        guard marks == 1, let instant else {
            throw BenchmarkFailure(scenario: scenario, message: "a measured body ran \(marks) times, expected once")
        }
        return start.duration(to: instant)
    }

    /// The sample from `start` on `trigger`'s thread to the mark; throws unless the body marked exactly once.
    func sample(from start: ContinuousClock.Instant, trigger: UInt, scenario: String) throws(BenchmarkFailure)
        -> LatencySample
    {
        let duration = try latency(from: start, scenario: scenario)
        return LatencySample(duration: duration, hot: trigger != 0 && thread == trigger)
    }
}
