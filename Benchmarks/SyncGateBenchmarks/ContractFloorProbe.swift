import SyncGate
import SyncGateTesting

/// The contract's floor (``ContractFloorScheduler`` following a manual environment) in scenarios 1, 3 and
/// 9, timed the way their SyncGate probes are: from just before the manual observer sends "connected" (or
/// the job is submitted while connected) to the first instruction of the job's body, the measuring task
/// then awaiting a mailbox the body fills and the job's outcome. Scenario 9 uses scenario 1's trigger from
/// a dedicated thread.
final class ContractFloorProbe: LatencyProbe {
    /// What starts the job.
    enum Trigger {
        /// A job waits for the network; the status change is sent from the measuring task or from a
        /// dedicated thread (scenario 1).
        case statusChange(fromThread: Bool)
        /// The network is connected; the job is submitted (scenario 3).
        case submit
    }

    private let scenario: String
    private let trigger: Trigger
    private let manual: ManualSyncEnvironment
    private let scheduler: ContractFloorScheduler
    private let driver: ThreadDriver?

    init(scenario: String, trigger: Trigger) {
        self.scenario = scenario
        self.trigger = trigger
        switch trigger {
        case .statusChange(let fromThread):
            manual = ManualSyncEnvironment(connectivity: .disconnected)
            driver = fromThread ? ThreadDriver() : nil
        case .submit:
            manual = ManualSyncEnvironment(connectivity: .connected(via: .wiredEthernet))
            driver = nil
        }
        scheduler = ContractFloorScheduler(
            slots: SyncScheduler.Configuration().maxConcurrentJobs, following: manual.environment)
    }

    deinit {
        driver?.stop()
    }

    func measure() async throws -> LatencySample {
        let stamp = Stamp()
        let started = Mailbox<Void>()
        let scheduler = scheduler
        let job = ContractFloorScheduler.Job(id: scheduler.makeID(), requirements: .network, priority: 1) { _ in
            stamp.mark()
            started.put(())
        }
        let connectivity = manual.connectivity
        let handle: ContractFloorScheduler.Handle
        let start: ContinuousClock.Instant
        let thread: UInt
        switch trigger {
        case .submit:
            settle()
            thread = Stamp.currentThread()
            start = ContinuousClock.now
            handle = try scheduler.submit(job)
            await started.take()
        case .statusChange:
            handle = try scheduler.submit(job)
            settle()
            if let driver {
                (start, thread, _) = try await driver.timed(
                    { connectivity.send(.connected(via: .wiredEthernet)) }, scenario: scenario,
                    until: { await started.take() })
            } else {
                thread = Stamp.currentThread()
                start = ContinuousClock.now
                connectivity.send(.connected(via: .wiredEthernet))
                await started.take()
            }
        }
        _ = await handle.outcome()
        if case .statusChange = trigger { connectivity.send(.disconnected) }
        return try stamp.sample(from: start, trigger: thread, scenario: scenario)
    }
}
