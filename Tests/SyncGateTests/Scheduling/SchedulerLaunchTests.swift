import Dispatch
import SyncGateTesting
import Testing

@testable import SyncGateCore

/// When a critical section starts more than one attempt, the tasks after the first are created after it
/// and registered in one more, so other threads act in between: a stop requested there still stops the
/// attempt, and an attempt that ends there leaves nothing behind that could take the place of the job's
/// next attempt. Each test starts two jobs with one change: the first job's task is created inside the
/// critical section, the second job's after it.
@Suite("Scheduler launches tasks after its lock", .timeLimit(.minutes(1)))
struct SchedulerLaunchTests {
    let manual = ManualSyncEnvironment(connectivity: .disconnected, account: .available)

    @Test("a job cancelled after its start was decided and before its task was registered is cancelled")
    func cancelBeforeRegistration() async throws {
        let scheduler = try SyncScheduler(environment: manual.environment, configuration: .init(maxConcurrentJobs: 2))
        let first = try scheduler.submit(SyncJob(id: "first", requires: .network) { _ in })
        let operation = ControlledOperation()
        let handle = try scheduler.submit(SyncJob(id: "job", requires: .network, operation: operation.operation))
        let probed = LockedState(0)
        scheduler.schedulerCore.launchProbe.withLock {
            $0 = {
                guard Self.isFirstCall(counted: probed) else { return }
                // On the launching thread, outside the lock, before the task is registered.
                handle.cancel()
            }
        }
        manual.connectivity.send(.connected(via: .wifi))
        // A cancel lost here would leave the attempt waiting for the operation's word forever.
        await operation.waitForCancellations(1)
        #expect(try await handle.outcome().state == .cancelled)
        #expect(try await first.outcome().state == .succeeded)
        #expect(probed.withLock { $0 } == 1)
        #expect(scheduler.consistencyViolations().isEmpty)
    }

    @Test("an attempt that ends before its task is registered does not displace the next attempt's task")
    func attemptEndsBeforeRegistration() async throws {
        let scheduler = try SyncScheduler(environment: manual.environment, configuration: .init(maxConcurrentJobs: 2))
        let first = try scheduler.submit(SyncJob(id: "first", requires: .network) { _ in })
        let operation = ControlledOperation()
        // The first attempt fails at once; the retry starts with no delay.
        operation.finish(.failure(Failure()))
        let handle = try scheduler.submit(
            SyncJob(
                id: "job", requires: .network, retry: .fixed(delay: .zero, maxAttempts: 3),
                operation: operation.operation))
        let secondStarted = DispatchSemaphore(value: 0)
        let probed = LockedState(0)
        scheduler.schedulerCore.launchProbe.withLock {
            $0 = {
                // Only the first launch waits: the one that started attempt 1 (after the first job's task), on
                // the sending thread.
                guard Self.isFirstCall(counted: probed) else { return }
                secondStarted.wait()
            }
        }
        // From a thread of its own: the probe blocks it until attempt 1 has failed and attempt 2 runs.
        async let sent: Void = ConsumerCancellation.onThread {
            manual.connectivity.send(.connected(via: .wifi))
        }
        await operation.waitForStarts(2)
        secondStarted.signal()
        await sent
        // Attempt 1's task, registered late, must not have taken attempt 2's place: the cancel reaches it.
        handle.cancel()
        await operation.waitForCancellations(1)
        #expect(try await handle.outcome().state == .cancelled)
        #expect(try await first.outcome().state == .succeeded)
        #expect(probed.withLock { $0 } >= 1)
        #expect(scheduler.consistencyViolations().isEmpty)
    }

    @Test(
        "a release of several batches, ended or cancelled, leaves no attempt task counted as not begun",
        arguments: [false, true])
    func unbegunCountReturnsToZero(cancelling: Bool) async throws {
        let count = SchedulerShell.startsPerCriticalSection * 2 + 7
        let scheduler = try SyncScheduler(
            environment: manual.environment, configuration: .init(maxConcurrentJobs: count))
        let handles = try (0..<count).map { index in
            try scheduler.submit(SyncJob(id: "job-\(index)", requires: .network) { _ in })
        }
        #expect(scheduler.schedulerCore.unbegunAttemptTasks == 0)
        manual.connectivity.send(.connected(via: .wifi))
        if cancelling { scheduler.cancelAll() }
        for handle in handles {
            let state = try await handle.outcome().state
            #expect(state == .succeeded || (cancelling && state == .cancelled))
        }
        // Each attempt ended after its task began; a count left above zero would make every later end wait
        // behind the executor's queue.
        #expect(scheduler.schedulerCore.unbegunAttemptTasks == 0)
        #expect(scheduler.consistencyViolations().isEmpty)
    }

    struct Failure: Error {}

    /// Counts a call; whether it was the first.
    static func isFirstCall(counted calls: LockedState<Int>) -> Bool {
        calls.withLock { count in
            count += 1
            return count == 1
        }
    }
}
