import SyncGateCore

/// The stall totals of every resource at one instant, and the rule by which two of them tell whether a
/// PSI trigger's signal stands for a real stall.
///
/// The kernel can signal a freshly armed trigger within its first window though no task stalled. A
/// signal is taken as real when, between the sample taken before it and one taken at it, some resource's
/// `total` grew by at least its threshold's share of the time between them, that time counted up to one
/// trigger window (``PressureStallParser/triggerWindowMicroseconds``). A window or more after the earlier
/// sample this is exactly the trigger's own condition (the stall it signals lies after that sample);
/// sooner, it asks for the threshold's rate of stall since the sample. A total that did not grow never
/// confirms.
package struct PressureStallSample: Sendable, Hashable {
    /// Microseconds some task stalled on each resource since boot (the `some` line's `total`).
    package var totals: [PressureResource: UInt64]
    /// When the totals were read.
    package var instant: ContinuousClock.Instant

    /// A sample of `totals` read at `instant`.
    package init(totals: [PressureResource: UInt64], instant: ContinuousClock.Instant) {
        self.totals = totals
        self.instant = instant
    }

    /// The totals of `<directory>/{cpu,io,memory}` now (``PressureStallReading``); `nil` when they
    /// cannot be read.
    package static func read(directory: String) -> PressureStallSample? {
        (try? PressureStallReading.read(directory: directory))?.sample
    }

    /// Whether `later`, taken when a trigger signalled, shows a stall of at least some resource's
    /// threshold since this sample (the rule above); a resource missing from either sample confirms.
    package func confirms(_ later: PressureStallSample, thresholds: PressureThresholds) -> Bool {
        let window = Double(PressureStallParser.triggerWindowMicroseconds)
        let elapsed = min(window, max(0, Self.microseconds(instant.duration(to: later.instant))))
        return PressureResource.allCases.contains { resource in
            guard let before = totals[resource], let after = later.totals[resource] else { return true }
            guard after > before else { return false }
            return Double(after - before) >= elapsed * thresholds[resource] / 100
        }
    }

    private static func microseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1_000_000 + Double(attoseconds) / 1_000_000_000_000
    }
}
