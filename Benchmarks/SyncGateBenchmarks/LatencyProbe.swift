/// One timed event: its latency, and whether it ran hot (its first instruction on the very thread that
/// triggered it, which the trigger freed by suspending) or parked (another thread had to take it).
struct LatencySample: Sendable {
    /// From just before the trigger to the first instruction reached.
    var duration: Duration
    /// Whether the first instruction ran on the triggering thread.
    var hot: Bool
}

/// One side of a latency comparison: something that can be timed once per call.
protocol LatencyProbe: AnyObject {
    /// Times one event, from the instant just before the trigger to the first instruction it reaches.
    func measure() async throws -> LatencySample
}

/// Every sample of one probe, in the order taken.
struct SampleSeries: Sendable {
    /// Latencies in nanoseconds.
    var nanoseconds: [Double] = []
    /// Whether each sample ran hot (see ``LatencySample/hot``).
    var hot: [Bool] = []
}

/// Runs probes interleaved, so that load from other processes falls on every side alike.
enum InterleavedSampler {
    /// Calls every probe once per round, rotating the order each round, and returns each probe's kept
    /// samples in the order taken (the first `warmup` rounds are discarded).
    static func run(_ probes: [any LatencyProbe], warmup: Int, samples: Int) async throws -> [SampleSeries] {
        var results = Array(repeating: SampleSeries(), count: probes.count)
        for index in results.indices {
            results[index].nanoseconds.reserveCapacity(samples)
            results[index].hot.reserveCapacity(samples)
        }
        for round in 0..<(warmup + samples) {
            for offset in probes.indices {
                let probe = (round + offset) % probes.count
                let sample = try await probes[probe].measure()
                if round >= warmup {
                    results[probe].nanoseconds.append(sample.duration.nanoseconds)
                    results[probe].hot.append(sample.hot)
                }
            }
        }
        return results
    }
}
