/// One side of a latency comparison: something that can be timed once per call.
protocol LatencyProbe: AnyObject {
    /// Times one event, from the instant just before the trigger to the first instruction it reaches.
    func measure() async throws -> Duration
}

/// Runs probes interleaved, so that load from other processes falls on every side alike.
enum InterleavedSampler {
    /// Calls every probe once per round, rotating the order each round, and returns each probe's kept
    /// samples in nanoseconds (the first `warmup` rounds are discarded).
    static func run(_ probes: [any LatencyProbe], warmup: Int, samples: Int) async throws -> [[Double]] {
        var results = Array(repeating: [Double](), count: probes.count)
        for index in results.indices { results[index].reserveCapacity(samples) }
        for round in 0..<(warmup + samples) {
            for offset in probes.indices {
                let probe = (round + offset) % probes.count
                let latency = try await probes[probe].measure()
                if round >= warmup { results[probe].append(latency.nanoseconds) }
            }
        }
        return results
    }
}
