/// The command line: which scenarios, what sizes, where the reports go.
struct BenchmarkOptions: Sendable {
    /// The sizes of one run.
    struct Sizes: Sendable, Codable {
        /// Latency samples discarded before measuring, per probe.
        var warmup: Int
        /// Latency samples kept, per probe.
        var samples: Int
        /// Jobs blocked on an unmet requirement in scenario 2.
        var blockedJobs: Int
        /// No-op jobs in scenario 4.
        var throughputJobs: Int
        /// Slots in scenario 4.
        var throughputSlots: Int
        /// Waiting jobs released at once in scenario 5.
        var releasedJobs: Int
        /// `waitUntil` waiters released at once in scenario 6.
        var waiters: Int
        /// Jobs queued in scenario 7.
        var memoryJobs: Int
        /// Default-route flaps (each one delete and one add) in scenario 8: in a full run, enough that each of
        /// the five rounds holds 2 000 samples, so its p99.9 is a percentile, not its largest sample.
        var flaps: Int
        /// Carrier flaps (peer link down, then up) in scenario 8; slow, the kernel batches carrier changes.
        var carrierFlaps: Int
        /// Route appearances discarded before measuring in scenario 10.
        var kernelJobWarmup: Int
        /// Route appearances measured in scenario 10.
        var kernelJobSamples: Int
        /// Route appearances measured in scenario 13 (each costs the observer's window for the loss).
        var defaultPathSamples: Int
        /// `syncgate wait` children measured in scenario 13.
        var childWaitSamples: Int
        /// Jobs waiting while scenario 10 counts the idle process's wake-ups.
        var idleJobs: Int
        /// How long scenarios 8, 10 and 11 watch an idle process.
        var idleSeconds: Int
        /// How long a scenario may wait for its jobs before declaring one lost, in seconds.
        var patienceSeconds: Int

        /// ``patienceSeconds`` as a duration.
        var patience: Duration { .seconds(patienceSeconds) }

        /// The sizes of the issue.
        static let full = Sizes(
            warmup: 1_000, samples: 20_000, blockedJobs: 100_000, throughputJobs: 1_000_000, throughputSlots: 64,
            releasedJobs: 100_000, waiters: 10_000, memoryJobs: 1_000_000, flaps: 5_000, carrierFlaps: 10,
            kernelJobWarmup: 20, kernelJobSamples: 1_000, defaultPathSamples: 100, childWaitSamples: 20,
            idleJobs: 1_000, idleSeconds: 10, patienceSeconds: 300
        )

        /// Small sizes for the CI smoke run (well under 30 s in all).
        static let quick = Sizes(
            warmup: 100, samples: 1_000, blockedJobs: 10_000, throughputJobs: 50_000, throughputSlots: 64,
            releasedJobs: 10_000, waiters: 2_000, memoryJobs: 50_000, flaps: 20, carrierFlaps: 2,
            kernelJobWarmup: 5, kernelJobSamples: 20, defaultPathSamples: 10, childWaitSamples: 3, idleJobs: 100,
            idleSeconds: 1, patienceSeconds: 60
        )
    }

    /// Whether this is the small smoke run.
    var quick = false
    /// The sizes in use.
    var sizes = Sizes.full
    /// The scenarios to run, by name; all when empty.
    var scenarios: [String] = []
    /// Where to write the JSON report.
    var jsonPath: String?
    /// Where to write the SVG chart.
    var svgPath: String?

    /// The usage text.
    static let usage = """
        usage: swift run -c release SyncGateBenchmarks [--quick] [--scenario NAME]... [--json PATH] [--svg PATH]

          --quick          small sizes (under 30 s in all); checks every job ran exactly once, never timing
          --scenario NAME  run only this scenario (repeatable); NAME is one of
                           \(Scenario.allCases.map(\.name).joined(separator: ", ")) or its number 1-\(Scenario.allCases.count)
          --json PATH      write every figure, percentile and curve as JSON
          --svg PATH       draw the latency distributions and the release curves as SVG
        """

    /// Parses the arguments after the program name.
    static func parse(_ arguments: [String]) throws(BenchmarkFailure) -> BenchmarkOptions {
        var options = BenchmarkOptions()
        var remaining = arguments[...]
        func value(for flag: String) throws(BenchmarkFailure) -> String {
            guard let value = remaining.popFirst(), !value.hasPrefix("--") else {
                throw BenchmarkFailure(scenario: "arguments", message: "\(flag) needs a value\n\n\(usage)")
            }
            return value
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "--quick":
                options.quick = true
                options.sizes = .quick
            case "--scenario":
                let name = try value(for: argument)
                guard let scenario = Scenario(named: name) else {
                    throw BenchmarkFailure(
                        scenario: "arguments", message: "--scenario: unknown scenario \"\(name)\"\n\n\(usage)")
                }
                options.scenarios.append(scenario.name)
            case "--json": options.jsonPath = try value(for: argument)
            case "--svg": options.svgPath = try value(for: argument)
            case "--help", "-h":
                throw BenchmarkFailure(scenario: "usage", message: "\n\(usage)")
            default:
                throw BenchmarkFailure(scenario: "arguments", message: "unknown argument \"\(argument)\"\n\n\(usage)")
            }
        }
        return options
    }
}
