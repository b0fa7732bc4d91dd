import Foundation

/// The scenarios of the harness, in the order they run and are numbered.
enum Scenario: Int, CaseIterable, Sendable {
    case statusChange = 1
    case blockedJobs
    case submit
    case throughput
    case release
    case waiters
    case memory
    case kernel
    case appSource
    case kernelJob
    case idleWakeups
    case progress
    case defaultPath

    /// This harness's executable, for the scenarios that run it again as a child process (a fresh heap, or
    /// a reference child) and that look for the `syncgate` tool built beside it.
    static var harnessExecutable: URL {
        Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    }

    /// The name given to `--scenario`.
    var name: String {
        switch self {
        case .statusChange: "status-change"
        case .blockedJobs: "blocked-jobs"
        case .submit: "submit"
        case .throughput: "throughput"
        case .release: "release"
        case .waiters: "waiters"
        case .memory: "memory"
        case .kernel: "kernel-event"
        case .appSource: "app-source"
        case .kernelJob: "kernel-job"
        case .idleWakeups: "idle-wakeups"
        case .progress: "progress"
        case .defaultPath: "default-path"
        }
    }

    /// Finds a scenario by name or number.
    init?(named name: String) {
        if let number = Int(name), let scenario = Scenario(rawValue: number) {
            self = scenario
        } else if let scenario = Scenario.allCases.first(where: { $0.name == name }) {
            self = scenario
        } else {
            return nil
        }
    }

    /// Runs the scenario with the given sizes.
    func run(_ sizes: BenchmarkOptions.Sizes) async throws -> ScenarioResult {
        switch self {
        case .statusChange: try await Self.runStatusChange(sizes)
        case .blockedJobs: try await Self.runBlockedJobs(sizes)
        case .submit: try await Self.runSubmit(sizes)
        case .throughput: try await Self.runThroughput(sizes)
        case .release: try await Self.runRelease(sizes)
        case .waiters: try await Self.runWaiters(sizes)
        case .memory: try await Self.runMemory(sizes)
        case .kernel: try await Self.runKernelEvent(sizes)
        case .appSource: try await Self.runAppSource(sizes)
        case .kernelJob: try await Self.runKernelJob(sizes)
        case .idleWakeups: try await Self.runIdleWakeups(sizes)
        case .progress: try await Self.runProgress(sizes)
        case .defaultPath: try await Self.runDefaultPath(sizes)
        }
    }

    /// How long the scenario may take before the watchdog declares it hung.
    func limit(_ sizes: BenchmarkOptions.Sizes) -> Duration {
        switch self {
        case .kernel, .kernelJob: .seconds(120 + 2 * sizes.idleSeconds)
        // Two processes measured, one of them a minute more, and the daemon's jobs submitted one by one.
        case .idleWakeups: .seconds(240 + 2 * sizes.idleSeconds)
        default: sizes.patience * 2
        }
    }
}
