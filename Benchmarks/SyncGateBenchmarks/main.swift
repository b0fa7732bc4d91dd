// SyncGateBenchmarks: the dispatch-latency harness (goals and figures in docs/PERFORMANCE.md).
//
//   swift run -c release SyncGateBenchmarks [--quick] [--scenario NAME]... [--json PATH] [--svg PATH]
//
// Every latency is measured interleaved with its baseline in the same run; every scenario checks that
// each job it submitted ran exactly once and exits non-zero otherwise. Timing never fails a run.

import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs the selected scenarios, prints the table, writes the files; returns the exit status.
func runBenchmarks(_ arguments: [String]) async -> Int32 {
    let options: BenchmarkOptions
    do {
        options = try BenchmarkOptions.parse(arguments)
    } catch {
        print(error.scenario == "usage" ? error.message : "error: \(error)")
        return error.scenario == "usage" ? 0 : 2
    }
    var report = BenchmarkReport(options: options)
    let selected = Scenario.allCases.filter { options.scenarios.isEmpty || options.scenarios.contains($0.name) }
    let watchdog = Watchdog()
    var failure: (any Error)?
    for scenario in selected {
        print("running [\(scenario.rawValue)] \(scenario.name)…")
        fflush(nil)
        watchdog.arm(scenario.name, limit: scenario.limit(options.sizes))
        let started = ContinuousClock.now
        do {
            var result = try await scenario.run(options.sizes)
            result.seconds = started.duration(to: .now).nanoseconds / 1e9
            report.scenarios.append(result)
        } catch {
            failure = error
            print("FAIL \(error)")
            break
        }
        watchdog.disarm()
    }
    report.machine.loadAverageAtEnd = BenchmarkReport.loadAverage()
    print("")
    print(TableReport.render(report))
    do {
        if let path = options.jsonPath {
            try report.writeJSON(to: path)
            print("\nwrote \(path)")
        }
        if let path = options.svgPath {
            try SVGChart.render(report).write(toFile: path, atomically: true, encoding: .utf8)
            print("wrote \(path)")
        }
    } catch {
        print("error writing the reports: \(error)")
        return 2
    }
    if let failure {
        print("\nFAILED: \(failure)")
        return 1
    }
    return 0
}

// Scenario 7's child: the harness re-run with this argument measures memory in a fresh process.
if CommandLine.arguments.dropFirst().first == Scenario.memoryChildArgument {
    exit(await Scenario.runMemoryChild(Array(CommandLine.arguments.dropFirst())))
}
#if os(Linux)
    // Scenario 13's reference child: the harness re-run with this argument waits for the route and exits.
    if CommandLine.arguments.dropFirst().first == DefaultPathMeasurement.referenceChildArgument {
        exit(DefaultPathMeasurement.runReferenceChild())
    }
#endif
let status = await runBenchmarks(Array(CommandLine.arguments.dropFirst()))
exit(status)
