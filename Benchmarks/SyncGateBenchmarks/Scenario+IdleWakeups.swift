import Foundation

extension Scenario {
    /// Scenario 11: wake-ups of every thread of `syncgate watch` while nothing changes.
    static func runIdleWakeups(_ sizes: BenchmarkOptions.Sizes) async throws -> ScenarioResult {
        let idle = sizes.idleSeconds
        var result = ScenarioResult(
            name: Scenario.idleWakeups.name, number: 11,
            title: "idle wake-ups of `syncgate watch` (every thread of the process)",
            measures: "starts the `syncgate` binary built beside the harness as `syncgate watch` (output discarded), "
                + "waits 1 s for it to settle, then sums the voluntary context switches "
                + "(/proc/PID/task/*/status, voluntary_ctxt_switches; a thread born meanwhile counts from zero) of "
                + "every thread of that process over \(idle) s with nothing changing. Scenario 10 does the same "
                + "inside the harness, for a scheduler holding waiting jobs"
        )
        #if os(Linux)
            let directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
                .deletingLastPathComponent()
            let binary = directory.appendingPathComponent("syncgate")
            guard FileManager.default.isExecutableFile(atPath: binary.path) else {
                result.skipped =
                    "skipped: no `syncgate` binary beside the harness at \(binary.path) (build it: "
                    + "swift build -c release)"
                return result
            }
            let process = Process()
            process.executableURL = binary
            process.arguments = ["watch"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            defer {
                if process.isRunning {
                    process.terminate()
                    process.waitUntilExit()
                }
            }
            let root = "/proc/\(process.processIdentifier)"
            try await Task.sleep(for: .seconds(1))
            let before = ThreadCensus.census(of: root)
            try await Task.sleep(for: .seconds(idle))
            let after = ThreadCensus.census(of: root)
            guard process.isRunning, !after.isEmpty else {
                throw BenchmarkFailure(
                    scenario: Scenario.idleWakeups.name,
                    message: "`syncgate watch` exited during the measurement (status \(process.terminationStatus))")
            }
            let wakeups = ThreadCensus.wakeups(from: before, to: after)
            let total = wakeups.reduce(0) { $0 + $1.count }
            result.figures.append(
                Figure(
                    "wake-ups of every thread of `syncgate watch` in \(idle) s idle (\(after.count) threads)",
                    Double(total), unit: "wake-ups", goal: "0", goalMet: total == 0))
            for thread in wakeups {
                result.notes.append("idle wake-ups: thread \(thread.tid) \"\(thread.name)\": \(thread.count)")
            }
            result.checks.append("`syncgate watch` ran throughout the measurement")
        #else
            result.skipped = "skipped: reads /proc, Linux only"
        #endif
        return result
    }
}
