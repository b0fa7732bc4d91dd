import Foundation
import SyncGate
import SyncGateTesting

extension Scenario {
    /// The argument that makes the harness scenario 7's child: it measures, prints one line and exits.
    static let memoryChildArgument = "--memory-child"

    /// Scenario 7: resident memory per waiting job, beyond its closure, measured in a fresh process.
    ///
    /// The harness runs itself again to measure (``memoryChildArgument``), so the resident growth per job
    /// is that of a heap as an app's launch has it: in the harness's own process, after scenario 4's
    /// million jobs, the allocator hands out pages other scenarios freed, and the figure depended on what
    /// ran before it.
    static func runMemory(_ sizes: BenchmarkOptions.Sizes) async throws -> ScenarioResult {
        let name = Scenario.memory.name
        let count = sizes.memoryJobs
        var result = ScenarioResult(
            name: name, number: 7, title: "memory per waiting job (\(count) queued)",
            measures: "in a fresh process (the harness run again), resident memory (/proc/self/statm, after "
                + "malloc_trim) before and after submitting \(count) jobs that wait for the network, handles "
                + "dropped by the caller; the closure's own size is measured the same way by building \(count) "
                + "identical closures into a pre-sized array"
        )
        guard let measured = try measureInChild(count: count, patience: sizes.patience, scenario: name) else {
            result.skipped = "/proc/self/statm cannot be read on this system"
            return result
        }
        let beyond = measured.perJob - measured.closure
        result.figures += [
            Figure(
                "resident bytes per waiting job beyond its closure", beyond, unit: "bytes",
                goal: "≤ 384 bytes", goalMet: beyond <= 384
            ),
            Figure("resident bytes per waiting job, closure included", measured.perJob, unit: "bytes"),
            Figure("resident bytes per closure (context; subtracted above)", measured.closure, unit: "bytes"),
            Figure("resident growth for all jobs", measured.growth / 1_048_576, unit: "MiB"),
        ]
        result.checks.append(
            "in the child process: no job ran while queued; released, each of the \(count) ran exactly once")
        result.notes.append(
            "each job carries the default id (a per-launch prefix, `#` and a base-36 counter, stored inline) and an "
                + "unretained handle; the SyncJob value itself is transient")
        return result
    }

    /// What the child measured: bytes per closure, per job with its closure, and the jobs' whole growth.
    private struct MemoryMeasurement {
        var closure: Double
        var perJob: Double
        var growth: Double
    }

    /// Runs the harness again as scenario 7's child and reads its line; `nil` when the child could not
    /// read its resident memory.
    private static func measureInChild(
        count: Int, patience: Duration, scenario: String
    ) throws -> MemoryMeasurement? {
        let process = Process()
        process.executableURL = Scenario.harnessExecutable
        process.arguments = [memoryChildArgument, "\(count)", "\(patience.components.seconds)"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard process.terminationStatus == 0 else {
            throw BenchmarkFailure(
                scenario: scenario, message: "the memory child exited with \(process.terminationStatus): \(text)")
        }
        if text == "skipped" { return nil }
        let fields = text.split(separator: " ").compactMap { Double($0) }
        guard text.hasPrefix("memory "), fields.count == 3 else {
            throw BenchmarkFailure(scenario: scenario, message: "the memory child printed \"\(text)\"")
        }
        return MemoryMeasurement(closure: fields[0], perJob: fields[1], growth: fields[2])
    }

    /// The child's side: measures in this process and prints `memory CLOSURE PER-JOB GROWTH` (bytes), or
    /// `skipped`; returns the exit status (1 when a job ran while queued or not exactly once).
    static func runMemoryChild(_ arguments: [String]) async -> Int32 {
        guard arguments.count >= 3, let count = Int(arguments[1]), let patience = Int(arguments[2]) else {
            print("usage: \(memoryChildArgument) COUNT PATIENCE-SECONDS")
            return 2
        }
        do {
            guard let measured = try await measure(count: count, patience: .seconds(patience)) else {
                print("skipped")
                return 0
            }
            print("memory \(measured.closure) \(measured.perJob) \(measured.growth)")
            return 0
        } catch {
            print("error: \(error)")
            return 1
        }
    }

    private static func measure(count: Int, patience: Duration) async throws -> MemoryMeasurement? {
        let name = Scenario.memory.name
        let ledger = RunLedger(count: count)
        var operations: [SyncJob.Operation] = []
        operations.reserveCapacity(count)
        ProcessMemory.trim()
        guard let closuresBefore = ProcessMemory.residentBytes() else { return nil }
        for index in 0..<count {
            operations.append { _ in ledger.record(index) }
        }
        let closuresAfter = ProcessMemory.residentBytes() ?? closuresBefore
        let closureBytes = Double(closuresAfter - closuresBefore) / Double(count)
        operations = []

        let manual = ManualSyncEnvironment(connectivity: .disconnected)
        let scheduler = try SyncScheduler(environment: manual.environment, configuration: .init(maxConcurrentJobs: 64))
        ProcessMemory.trim()
        let jobsBefore = ProcessMemory.residentBytes() ?? 0
        for index in 0..<count {
            try scheduler.submit(SyncJob(requires: .network) { _ in ledger.record(index) })
        }
        let jobsAfter = ProcessMemory.residentBytes() ?? jobsBefore

        guard ledger.recorded == 0 else {
            throw BenchmarkFailure(scenario: name, message: "\(ledger.recorded) jobs ran before the network came up")
        }
        manual.connectivity.send(.connected(via: .wiredEthernet))
        try await ledger.waitForAll(scenario: name, limit: patience)
        await scheduler.shutdown(gracePeriod: .seconds(5))
        try ledger.verifyExactlyOnce(scenario: name)
        return MemoryMeasurement(
            closure: closureBytes, perJob: Double(jobsAfter - jobsBefore) / Double(count),
            growth: Double(jobsAfter - jobsBefore))
    }
}
