import Foundation

extension Scenario {
    /// Scenario 11: wake-ups of every thread of `syncgate watch`, and of `syncgate daemon` holding waiting
    /// jobs, while nothing changes.
    static func runIdleWakeups(_ sizes: BenchmarkOptions.Sizes) async throws -> ScenarioResult {
        let idle = sizes.idleSeconds
        var result = ScenarioResult(
            name: Scenario.idleWakeups.name, number: 11,
            title: "idle wake-ups of `syncgate watch` and of `syncgate daemon` holding waiting jobs (every thread)",
            measures: "starts the `syncgate` binary built beside the harness as `syncgate watch` (output discarded), "
                + "waits 6 s for it to settle (libdispatch's worker threads, which the D-Bus sources' first "
                + "connection attempts use, exit 5 s after their last work), then sums the voluntary context switches "
                + "(/proc/PID/task/*/status, voluntary_ctxt_switches; a thread born meanwhile counts from zero, one "
                + "that exits meanwhile counts as one) of every thread of that process over \(idle) s with nothing "
                + "changing. Then the same for "
                + "`syncgate daemon` (a durable SyncScheduler on this machine's environment) holding "
                + "\(sizes.idleJobs) jobs submitted with `syncgate submit --condition` on a condition nobody sets, "
                + "one of them also requiring `not-under-pressure` (so the daemon's PSI triggers are armed and its "
                + "`sg-pressure` thread waits in poll; a machine under pressure reads avg10 every 5 s instead), "
                + "and one with `--on-change` on a directory nobody changes, "
                + "measured from 6 s after the last submission (the journal's background sync also runs on "
                + "libdispatch's pool). "
                + "Both run on SyncGate's quiet executors (QuietExecutors.runMain). Scenario 10 counts the "
                + "harness's own wake-ups with a scheduler holding waiting jobs, on Swift's default executors"
        )
        #if os(Linux)
            let directory = Scenario.harnessExecutable.deletingLastPathComponent()
            let binary = directory.appendingPathComponent("syncgate")
            guard FileManager.default.isExecutableFile(atPath: binary.path) else {
                result.skipped =
                    "skipped: no `syncgate` binary beside the harness at \(binary.path) (build it: "
                    + "swift build -c release)"
                return result
            }
            let watch = try IdleProcess(binary, ["watch"])
            defer { watch.stop() }
            // The D-Bus sources' first connection attempts run on libdispatch's pool, whose worker threads
            // linger 5 s before they exit (each exit is a wake-up): measure after that.
            let watchWakeups = try await watch.measure(
                seconds: idle, settle: .seconds(6), scenario: Scenario.idleWakeups.name)
            result.add(watchWakeups, of: "`syncgate watch`", seconds: idle)
            if idle >= 10 {
                // A minute more: `watch` shows free space, which has no change notification, so the storage
                // observer reads it once per check interval (60 s). The goal's 10 s may fall between checks.
                let minute = try await watch.measure(seconds: 60, settle: .zero, scenario: Scenario.idleWakeups.name)
                result.add(
                    minute, of: "`syncgate watch` (the free-space check is due every 60 s)", seconds: 60,
                    hasGoal: false)
            }
            watch.stop()

            let state = FileManager.default.temporaryDirectory
                .appendingPathComponent("syncgate-idle-\(getpid())")
            defer { try? FileManager.default.removeItem(at: state) }
            let socket = state.appendingPathComponent("socket").path
            let daemon = try IdleProcess(
                binary, ["daemon", "--state-dir", state.appendingPathComponent("jobs").path, "--socket", socket])
            defer { daemon.stop() }
            try await IdleProcess.waitForFile(socket, scenario: Scenario.idleWakeups.name)
            for index in 0..<sizes.idleJobs {
                let pressure = index == 0 ? ["--require", "network,not-under-pressure"] : []
                let status = try IdleProcess.runToEnd(
                    binary,
                    ["submit"] + pressure + ["--condition", "never-set", "--name", "idle-\(index)", "--", "true"],
                    environment: ["SYNCGATE_SOCKET": socket])
                guard status == 0 else {
                    throw BenchmarkFailure(
                        scenario: Scenario.idleWakeups.name, message: "`syncgate submit` exited with \(status)")
                }
            }
            // And one file-triggered job, armed on a directory nobody changes: its watch is the inotify
            // thread blocked in poll, which must make no wake-up either.
            let watched = state.appendingPathComponent("watched")
            try FileManager.default.createDirectory(at: watched, withIntermediateDirectories: true)
            let triggerStatus = try IdleProcess.runToEnd(
                binary, ["submit", "--on-change", watched.path, "--name", "idle-on-change", "--", "true"],
                environment: ["SYNCGATE_SOCKET": socket])
            guard triggerStatus == 0 else {
                throw BenchmarkFailure(
                    scenario: Scenario.idleWakeups.name,
                    message: "`syncgate submit --on-change` exited with \(triggerStatus)")
            }
            // Likewise the journal's background fdatasync after the submissions.
            let daemonWakeups = try await daemon.measure(
                seconds: idle, settle: .seconds(6), scenario: Scenario.idleWakeups.name)
            result.add(
                daemonWakeups, of: "`syncgate daemon` holding \(sizes.idleJobs) waiting jobs and a file trigger",
                seconds: idle)
            result.checks.append("`syncgate watch` and `syncgate daemon` ran throughout their measurements")
        #else
            result.skipped = "skipped: reads /proc, Linux only"
        #endif
        return result
    }
}

#if os(Linux)
    extension ScenarioResult {
        /// Records the wake-ups of one process as a figure with the goal 0, and each waking thread as a note.
        fileprivate mutating func add(
            _ measured: (threads: Int, wakeups: [(tid: Int, name: String, count: Int)], exited: Int),
            of subject: String, seconds: Int, hasGoal: Bool = true
        ) {
            let total = measured.wakeups.reduce(0) { $0 + $1.count } + measured.exited
            figures.append(
                Figure(
                    "wake-ups of every thread of \(subject) in \(seconds) s idle (\(measured.threads) threads; "
                        + "\(measured.exited) exited meanwhile, each counted as one)",
                    Double(total), unit: "wake-ups", goal: hasGoal ? "0" : nil, goalMet: hasGoal ? total == 0 : nil))
            for thread in measured.wakeups {
                notes.append("idle wake-ups of \(subject): thread \(thread.tid) \"\(thread.name)\": \(thread.count)")
            }
        }
    }

    /// A `syncgate` process measured while idle.
    private final class IdleProcess {
        private let process = Process()

        init(_ binary: URL, _ arguments: [String]) throws {
            process.executableURL = binary
            process.arguments = arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
        }

        /// Waits `settle` for the process to settle, then counts its threads' wake-ups over `seconds`.
        func measure(seconds: Int, settle: Duration, scenario: String) async throws -> (
            threads: Int, wakeups: [(tid: Int, name: String, count: Int)], exited: Int
        ) {
            let root = "/proc/\(process.processIdentifier)"
            try await Task.sleep(for: settle)
            let before = ThreadCensus.census(of: root)
            try await Task.sleep(for: .seconds(seconds))
            let after = ThreadCensus.census(of: root)
            guard process.isRunning, !after.isEmpty else {
                let command = (process.arguments ?? []).first ?? ""
                throw BenchmarkFailure(
                    scenario: scenario,
                    message: "`syncgate \(command)` exited during the measurement (status \(process.terminationStatus))"
                )
            }
            let exited = Set(before.keys).subtracting(after.keys).count
            return (after.count, ThreadCensus.wakeups(from: before, to: after), exited)
        }

        func stop() {
            guard process.isRunning else { return }
            process.terminate()
            process.waitUntilExit()
        }

        /// Runs `binary` to its end and returns its exit status.
        static func runToEnd(_ binary: URL, _ arguments: [String], environment: [String: String]) throws -> Int32 {
            let process = Process()
            process.executableURL = binary
            process.arguments = arguments
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            return process.terminationStatus
        }

        /// Waits up to 10 s for `path` to exist.
        static func waitForFile(_ path: String, scenario: String) async throws {
            for _ in 0..<1_000 {
                if FileManager.default.fileExists(atPath: path) { return }
                try await Task.sleep(for: .milliseconds(10))
            }
            throw BenchmarkFailure(scenario: scenario, message: "no daemon socket at \(path) after 10 s")
        }
    }
#endif
