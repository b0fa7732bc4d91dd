import SyncGate

/// Scenario 9: one job waits for a part of the environment fed by a given kind of source; the clock
/// starts on a dedicated thread just before the source's change is sent and stops at the first
/// instruction of the job's body.
final class SourcePathProbe: LatencyProbe {
    /// A source to measure: the environment it feeds, what a job waits for, and how to open and close it.
    struct Source: Sendable {
        /// The environment that follows the source.
        var environment: SyncEnvironment
        /// What the measured job requires; the source opens it.
        var requirement: SyncRequirements
        /// Sends the change that meets the requirement; runs on the driver thread.
        var open: @Sendable () -> Void
        /// Sends the change that unmeets it again, and returns once the environment has seen it.
        var close: @Sendable () async -> Void
    }

    private let scenario: String
    private let source: Source
    private let scheduler: SyncScheduler
    private let driver = ThreadDriver()
    /// How many measured jobs ran and succeeded.
    private(set) var succeeded = 0

    init(scenario: String, source: Source) {
        self.scenario = scenario
        self.source = source
        scheduler = SyncScheduler(environment: source.environment)
    }

    func measure() async throws -> LatencySample {
        let stamp = Stamp()
        let handle = try scheduler.submit(SyncJob(requires: source.requirement) { _ in stamp.mark() })
        settle()
        let (start, thread, outcome) = try await driver.timed(source.open, scenario: scenario) {
            try await handle.outcome()
        }
        guard case .succeeded = outcome else {
            throw BenchmarkFailure(scenario: scenario, message: "a measured job ended \(outcome), expected success")
        }
        succeeded += 1
        await source.close()
        return try stamp.sample(from: start, trigger: thread, scenario: scenario)
    }

    /// Shuts the scheduler down and stops the driver thread.
    func finish() async {
        await scheduler.shutdown(gracePeriod: .seconds(5))
        driver.stop()
    }
}

extension SourcePathProbe.Source {
    /// An app's account fed through the public `StatusFeed`: the synchronous path.
    static func statusFeed() -> Self {
        let account = StatusFeed(AccountStatus.noAccount)
        return Self(
            environment: SyncEnvironment(account: account), requirement: .accountReady,
            open: { account.send(.available) }, close: { account.send(.noAccount) })
    }

    /// An app's own account type that offers only a stream: followed through it by a task.
    static func streamOnly() -> Self {
        let account = StreamAccountSource(.noAccount)
        let environment = SyncEnvironment(account: account)
        return Self(
            environment: environment, requirement: .accountReady,
            open: { account.send(.available) },
            close: {
                account.send(.noAccount)
                for await status in environment.accountStream where status != .available { break }
            })
    }

    #if os(Linux)
        /// SyncGate's own `ConnectivityObserver` with its link status sent by hand (no kernel, no D-Bus):
        /// the built-in path from the backend's broadcast through the NetworkManager merger.
        static func builtInObserver() -> Self {
            let link = StatusBroadcast(ConnectivityStatus.disconnected)
            let observer = ConnectivityObserver(linkStatus: link, networkManager: nil)
            return Self(
                environment: SyncEnvironment(connectivity: observer), requirement: .network,
                open: { link.send(.connected(via: .wiredEthernet)) },
                close: { link.send(.disconnected) })
        }
    #endif
}
