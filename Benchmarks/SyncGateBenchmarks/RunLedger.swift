import Synchronization

/// Records, for each of many jobs, when its body started and how many times it ran.
///
/// Each job writes only its own slot, so the slots need no lock; the total is atomic and is what the
/// driver polls. A job that ran twice shows up both in its slot and in the total.
final class RunLedger: @unchecked Sendable {
    /// How many jobs the ledger expects.
    let count: Int
    private let stamps: UnsafeMutableBufferPointer<ContinuousClock.Instant>
    private let runs: UnsafeMutableBufferPointer<UInt8>
    private let total = Atomic<Int>(0)

    /// Creates a ledger for `count` jobs (allocated up front, so the timed part allocates nothing here).
    init(count: Int) {
        self.count = count
        stamps = .allocate(capacity: count)
        stamps.initialize(repeating: ContinuousClock.now)
        runs = .allocate(capacity: count)
        runs.initialize(repeating: 0)
    }

    deinit {
        stamps.deallocate()
        runs.deallocate()
    }

    /// Records that job `index` started now; the first thing a measured body does.
    func record(_ index: Int) {
        let now = ContinuousClock.now
        stamps[index] = now
        runs[index] &+= 1
        total.add(1, ordering: .releasing)
    }

    /// How many bodies have run so far.
    var recorded: Int { total.load(ordering: .acquiring) }

    /// Polls until every job has run once, or throws when `limit` passes first.
    ///
    /// Polling does not affect the figures: they come from the stamps, not from when the driver notices.
    func waitForAll(scenario: String, limit: Duration) async throws {
        let deadline = ContinuousClock.now + limit
        while recorded < count {
            if ContinuousClock.now > deadline {
                throw BenchmarkFailure(
                    scenario: scenario, message: "only \(recorded) of \(count) jobs ran within \(limit)")
            }
            try await Task.sleep(for: .milliseconds(2))
        }
    }

    /// Throws unless every job ran exactly once.
    func verifyExactlyOnce(scenario: String) throws(BenchmarkFailure) {
        let total = recorded
        var missing = 0
        var repeated = 0
        for index in 0..<count {
            if runs[index] == 0 { missing += 1 } else if runs[index] > 1 { repeated += 1 }
        }
        guard total == count, missing == 0, repeated == 0 else {
            throw BenchmarkFailure(
                scenario: scenario,
                message:
                    "\(count) jobs expected to run once: \(total) runs, \(missing) never ran, \(repeated) ran more than once"
            )
        }
    }

    /// Each job's start, in nanoseconds after `origin`, in job order.
    func offsets(from origin: ContinuousClock.Instant) -> [Double] {
        stamps.map { origin.duration(to: $0).nanoseconds }
    }
}
