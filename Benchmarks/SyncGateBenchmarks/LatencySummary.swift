/// The percentiles the harness reports for a latency distribution, in nanoseconds.
///
/// Nearest-rank percentiles over all samples; no mean or deviation, because dispatch latency is
/// multi-modal (a waiting worker thread or a sleeping one).
struct LatencySummary: Codable, Sendable {
    /// The labels of ``values``, in order.
    static let labels = ["p0", "p50", "p90", "p99", "p99.9", "max"]
    /// The fractions behind ``labels``.
    static let fractions = [0, 0.5, 0.9, 0.99, 0.999, 1]

    /// How many samples.
    var count: Int
    /// p0, p50, p90, p99, p99.9 and max, in nanoseconds.
    var values: [Double]

    /// Summarises samples given in nanoseconds (in any order).
    init(nanoseconds samples: [Double]) {
        let sorted = samples.sorted()
        count = sorted.count
        values = Self.fractions.map { Self.percentile($0, ofSorted: sorted) }
    }

    /// The nearest-rank percentile of sorted samples; 0 for no samples.
    static func percentile(_ fraction: Double, ofSorted sorted: [Double]) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank - 1, 0), sorted.count - 1)]
    }

    /// The value for a label such as `"p50"`.
    func value(_ label: String) -> Double {
        values[Self.labels.firstIndex(of: label) ?? 0]
    }
}
