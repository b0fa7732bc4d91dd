import SyncGate
import SyncGateTesting
import Testing

/// What `print(handle)` and `print(scheduler.snapshot())` show a user.
@Suite("Readable handles and snapshots", .timeLimit(.minutes(1)))
struct JobDescriptionTests {
    struct Stopped: Error, CustomStringConvertible {
        var description: String { "disk full" }
    }

    /// How a job's life goes before its handle is printed.
    enum Step: String, CaseIterable, CustomTestStringConvertible {
        case waits, runs, succeeds, fails, isCancelled

        var testDescription: String { rawValue }

        /// What the handle prints after the step.
        var printed: String {
            switch self {
            case .waits: "job-1: waiting for [network]"
            case .runs: "job-1: running attempt 1"
            case .succeeds: "job-1: succeeded"
            case .fails: "job-1: failed: disk full"
            case .isCancelled: "job-1: cancelled"
            }
        }
    }

    @Test("a handle prints its job's id and state, or once ended its outcome", arguments: Step.allCases)
    func handle(step: Step) async throws {
        let manual = ManualSyncEnvironment(connectivity: .disconnected, clock: ManualClock())
        let scheduler = SyncScheduler(environment: manual.environment, clock: ManualClock())
        let operation = ControlledOperation()
        let handle = try scheduler.submit(SyncJob(id: "job-1", operation: operation.operation))
        switch step {
        case .waits:
            break
        case .runs:
            manual.setConnectivity(.connected(via: .wifi))
            await operation.waitForStarts(1)
        case .succeeds, .fails:
            manual.setConnectivity(.connected(via: .wifi))
            operation.finish(step == .succeeds ? .success(()) : .failure(Stopped()))
            _ = try await handle.outcome()
        case .isCancelled:
            handle.cancel()
            _ = try await handle.outcome()
        }
        #expect("\(handle)" == step.printed)
        #expect(String(describing: handle) == step.printed)
        if step == .runs {
            operation.finish()
            _ = try await handle.outcome()
        }
    }

    @Test(
        "a snapshot's header counts its jobs in words that agree with the number",
        arguments: [
            (0, "0 jobs, 0/4 running"),
            (1, "1 job, 0/4 running"),
            (2, "2 jobs, 0/4 running"),
        ])
    func snapshotHeader(jobs: Int, header: String) throws {
        let manual = ManualSyncEnvironment(connectivity: .disconnected, clock: ManualClock())
        let scheduler = SyncScheduler(environment: manual.environment, clock: ManualClock())
        for index in 0..<jobs {
            try scheduler.submit(SyncJob(id: "job-\(index)") { _ in })
        }
        let lines = scheduler.snapshot().description.split(separator: "\n").map(String.init)
        #expect(lines.first == header)
        #expect(Array(lines.dropFirst()) == (0..<jobs).map { "job-\($0): waiting for [network]" })
    }

    @Test("a shut-down scheduler's snapshot says so")
    func snapshotAfterShutdown() async throws {
        let manual = ManualSyncEnvironment(connectivity: .disconnected, clock: ManualClock())
        let scheduler = SyncScheduler(environment: manual.environment, clock: ManualClock())
        let waiting = try scheduler.submit(SyncJob(id: "job-1") { _ in })
        await scheduler.shutdown(gracePeriod: .zero)
        #expect("\(waiting)" == "job-1: cancelled")
        #expect(scheduler.snapshot().description == "0 jobs, 0/4 running, shut down")
    }
}
