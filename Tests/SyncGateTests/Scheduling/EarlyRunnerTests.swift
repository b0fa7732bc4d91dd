import SyncGateTesting
import Testing

@testable import SyncGateCore

/// A status change made off the Swift thread pool that may start a waiting job creates the job's task
/// before the machine decides (an early runner) and hands it the first attempt the change starts, through
/// an ``EarlyRunnerHandoff``.
@Suite("Early runners", .timeLimit(.minutes(1)))
struct EarlyRunnerTests {
    @Test(
        "the handoff gives the runner what was decided, whichever of the two comes first",
        arguments: [(decidedFirst: true, value: 7 as Int?), (true, nil), (false, 7), (false, nil)])
    func handoff(decidedFirst: Bool, value: Int?) async {
        let handoff = EarlyRunnerHandoff<Int>()
        if decidedFirst {
            handoff.decide(value)
            #expect(await handoff.take() == value)
        } else {
            // The runner may retry, then suspend; the decision reaches it either way.
            async let taken = handoff.take()
            handoff.decide(value)
            #expect(await taken == value)
        }
    }

    @Test(
        "a change from a thread starts each job it makes runnable exactly once, the first on its early runner",
        arguments: [1, 2, 5])
    func changeFromThread(maxConcurrentJobs: Int) async throws {
        let manual = ManualSyncEnvironment(connectivity: .disconnected)
        let scheduler = try SyncScheduler(
            environment: manual.environment, configuration: .init(maxConcurrentJobs: maxConcurrentJobs))
        let runs = LockedState([String: Int]())
        let handles = try (0..<4).map { index in
            try scheduler.submit(
                SyncJob(id: "job-\(index)", requires: .network) { context in
                    runs.withLock { $0[context.jobID, default: 0] += 1 }
                })
        }
        await ConsumerCancellation.onThread { manual.setConnectivity(.connected(via: .wifi)) }
        for handle in handles {
            #expect(try await handle.outcome().state == .succeeded)
        }
        #expect(runs.withLock { $0 } == Dictionary(uniqueKeysWithValues: handles.map { ($0.id, 1) }))
        #expect(scheduler.consistencyViolations().isEmpty)
    }

    @Test("a change from a thread that starts nothing ends its runner; the job starts with a later change")
    func changeStartingNothing() async throws {
        let manual = ManualSyncEnvironment(connectivity: .disconnected)
        let scheduler = SyncScheduler(environment: manual.environment)
        let runs = LockedState(0)
        let handle = try scheduler.submit(
            SyncJob(requires: [.network, .cloudDrive]) { _ in runs.withLock { $0 += 1 } })
        // Gains the network (so a runner is created) but not the cloud drive: nothing starts.
        await ConsumerCancellation.onThread { manual.setConnectivity(.connected(via: .wifi)) }
        guard case .waiting(let unmet, _) = handle.state else {
            Issue.record("the job left waiting: \(handle.state)")
            return
        }
        #expect(unmet == .cloudDrive)
        await ConsumerCancellation.onThread { manual.setCloudDriveAvailable(true) }
        #expect(try await handle.outcome().state == .succeeded)
        #expect(runs.withLock { $0 } == 1)
        #expect(scheduler.consistencyViolations().isEmpty)
    }

    @Test("a job cancelled as its early runner takes it is cancelled, and its slot is freed for the next")
    func cancelledAtOnce() async throws {
        let manual = ManualSyncEnvironment(connectivity: .disconnected)
        let scheduler = try SyncScheduler(environment: manual.environment, configuration: .init(maxConcurrentJobs: 1))
        let operation = ControlledOperation()
        let first = try scheduler.submit(SyncJob(id: "first", requires: .network, operation: operation.operation))
        let second = try scheduler.submit(SyncJob(id: "second", requires: .network) { _ in })
        await ConsumerCancellation.onThread {
            manual.setConnectivity(.connected(via: .wifi))
            // On the sending thread, right after the change: before or after the runner took the attempt.
            first.cancel()
        }
        await operation.waitForCancellations(1)
        #expect(try await first.outcome().state == .cancelled)
        #expect(try await second.outcome().state == .succeeded)
        #expect(scheduler.consistencyViolations().isEmpty)
    }
}
