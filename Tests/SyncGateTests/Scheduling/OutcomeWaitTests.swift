import SyncGate
import SyncGateTesting
import Testing

/// `SyncJobHandle.outcome()` when its caller is cancelled: the caller stops waiting, the job does not
/// notice. On a ManualClock and a ManualSyncEnvironment; nothing sleeps.
@Suite("Waiting for a job's outcome", .timeLimit(.minutes(1)))
struct OutcomeWaitTests {
    let clock = ManualClock()
    let manual: ManualSyncEnvironment
    let scheduler: SyncScheduler

    init() {
        manual = ManualSyncEnvironment(connectivity: .connected(via: .wifi), clock: clock)
        scheduler = SyncScheduler(environment: manual.environment, clock: clock)
    }

    /// Waits until `count` callers wait in the handle's `outcome()`; each turn lets the callers run, and
    /// the suite's time limit bounds the whole.
    func waitForWaiters(_ count: Int, on handle: SyncJobHandle) async throws {
        while handle.outcomeWaiterCount < count {
            try Task.checkCancellation()
            await Task.yield()
        }
    }

    @Test("a cancelled caller stops waiting at once; the job runs on and other callers get its outcome")
    func cancelledCallerStopsWaiting() async throws {
        let operation = ControlledOperation()
        let handle = try scheduler.submit(SyncJob(id: "upload", requires: .network, operation: operation.operation))
        await operation.waitForStarts(1)
        let leaving = Task { try await handle.outcome() }
        let staying = Task { try await handle.outcome() }
        try await waitForWaiters(2, on: handle)

        leaving.cancel()
        await #expect(throws: CancellationError.self) { try await leaving.value }
        #expect(handle.outcomeWaiterCount == 1)
        #expect(handle.state == .running(attempt: 1))
        #expect(operation.cancellations.value == 0)
        #expect(handle.finalOutcome == nil)

        operation.finish()
        #expect(try await staying.value == .succeeded)
        #expect(try await handle.outcome() == .succeeded)
        #expect(operation.starts.value == 1)
    }

    @Test("a caller cancelled before it asks gets CancellationError while the job runs")
    func cancelledBeforeAsking() async throws {
        let operation = ControlledOperation()
        let handle = try scheduler.submit(SyncJob(id: "upload", requires: .network, operation: operation.operation))
        await operation.waitForStarts(1)
        let cancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await handle.outcome()
        }
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(handle.outcomeWaiterCount == 0)
        #expect(handle.state == .running(attempt: 1))
        operation.finish()
        #expect(try await handle.outcome() == .succeeded)
    }

    @Test("a cancelled caller still gets the outcome of a job that has already ended")
    func cancelledAfterTheEnd() async throws {
        let handle = try scheduler.submit(SyncJob(id: "quick", requires: .network) { _ in })
        #expect(try await handle.outcome() == .succeeded)
        let late = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await handle.outcome()
        }
        #expect(try await late.value == .succeeded)
    }

    @Test("run still cancels its job when its caller is cancelled, and ends when the job has ended")
    func runCancelsItsJob() async throws {
        let operation = ControlledOperation(ignoresCancellation: true)
        let scheduler = scheduler
        let caller = Task {
            try await scheduler.run(requiring: .network) { context in try await operation.operation(context) }
        }
        await operation.waitForStarts(1)
        caller.cancel()
        await operation.waitForCancellations(1)
        #expect(scheduler.snapshot().runningCount == 1)
        operation.finish()
        await #expect(throws: CancellationError.self) { try await caller.value }
        #expect(scheduler.snapshot().jobs.isEmpty)
    }
}
