import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A whole run: the machine, the sizes, and every scenario's result; what `--json` writes.
struct BenchmarkReport: Codable, Sendable {
    /// The machine and the moment, so numbers are never read without their context.
    struct Machine: Codable, Sendable {
        var processors: Int
        var kernel: String
        var loadAverageAtStart: [Double]
        var loadAverageAtEnd: [Double] = []
        var date: String
        var build: String
    }

    /// Whether this was the `--quick` smoke run.
    var quick: Bool
    /// The sizes in use.
    var sizes: BenchmarkOptions.Sizes
    /// Where and when it ran.
    var machine: Machine
    /// The scenarios' results, in the order run.
    var scenarios: [ScenarioResult] = []
    /// Latencies are in nanoseconds; curve points are `[fraction, ns]` or `[ms, count]`.
    var units = "latency values in nanoseconds; curves: latency [fraction, ns], release [ms after change, count]"

    /// Starts a report for a run with the given options.
    init(options: BenchmarkOptions) {
        quick = options.quick
        sizes = options.sizes
        var name = utsname()
        uname(&name)
        let release = withUnsafeBytes(of: &name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        #if DEBUG
            let build = "debug (numbers are meaningless; use -c release)"
        #else
            let build = "release"
        #endif
        machine = Machine(
            processors: ProcessInfo.processInfo.activeProcessorCount,
            kernel: release,
            loadAverageAtStart: Self.loadAverage(),
            date: ISO8601DateFormatter().string(from: Date()),
            build: build
        )
    }

    /// The 1, 5 and 15 minute load averages.
    static func loadAverage() -> [Double] {
        var values = [Double](repeating: 0, count: 3)
        _ = getloadavg(&values, 3)
        return values
    }

    /// Writes the report as pretty JSON.
    func writeJSON(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: URL(fileURLWithPath: path))
    }
}
