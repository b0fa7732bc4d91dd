import Foundation
import SyncGate
import SyncGateTesting
import Testing

/// What `print(report)` shows after `restoreJobs()`: the counts, and each job with its state.
@Suite("Readable restore reports", .timeLimit(.minutes(1)))
struct DurableRestoreReportTests {
    let directory = TemporaryDirectory()
    let clock = ManualClock()
    let wall = ManualWallClock()

    /// One process lifetime over the test's directory; `kinds` are the kinds it registers.
    func open(
        connected: Bool, kinds: [String], operation: ControlledOperation = ControlledOperation()
    ) throws -> (durable: DurableScheduler, store: FileJobStore) {
        let manual = ManualSyncEnvironment(
            connectivity: connected ? .connected(via: .wifi) : .disconnected, clock: clock)
        let scheduler = try SyncScheduler(
            environment: manual.environment, configuration: .init(maxConcurrentJobs: 1), clock: clock)
        let store = try FileJobStore(directory: directory.path)
        let durable = DurableScheduler(scheduler: scheduler, store: store, wallClock: wall.function)
        for kind in kinds {
            try durable.register(kind, payload: UploadRequest.self) { _, context in
                try await operation.operation(context)
            }
        }
        return (durable, store)
    }

    @Test("the report counts in words that agree with the numbers and lists each job with its state")
    func describesEveryJob() async throws {
        let operation = ControlledOperation()
        let first = try open(connected: true, kinds: ["upload", "legacy"], operation: operation)
        _ = try first.durable.restoreJobs()
        try first.durable.submit(DurableJob(id: "up-1", kind: "upload", payload: UploadRequest(photo: 1)))
        await operation.waitForStarts(1)  // up-1 runs when the process "dies"; the others wait their turn
        try first.durable.submit(DurableJob(id: "up-2", kind: "upload", payload: UploadRequest(photo: 2)))
        try first.durable.submit(
            DurableJob(
                id: "up-3", kind: "upload", payload: UploadRequest(photo: 3),
                options: SyncJobOptions(startDeadline: .seconds(30))))
        try first.durable.submit(DurableJob(id: "old-1", kind: "legacy", payload: UploadRequest(photo: 4)))
        try first.store.close()

        wall.advance(by: 31)
        let second = try open(connected: false, kinds: ["upload"])
        let report = try second.durable.restoreJobs()
        #expect(
            report.description.split(separator: "\n").map(String.init) == [
                "restored 2 durable jobs (1 interrupted), 1 expired, 0 discarded, 1 kept, 0 store issues",
                "restored up-1: waiting for [network] (interrupted: it runs again)",
                "restored up-2: waiting for [network]",
                "expired up-3: its start deadline passed while the app was not running",
                "kept old-1 (kind \"legacy\"): no handler is registered for this kind",
            ])
        operation.finish()
        try second.store.close()
    }

    @Test("one restored job and one store issue are singular")
    func singular() async throws {
        let first = try open(connected: false, kinds: ["upload"])
        _ = try first.durable.restoreJobs()
        try first.durable.submit(DurableJob(id: "up-1", kind: "upload", payload: UploadRequest(photo: 1)))
        try first.store.close()
        try directory.write(try directory.bytes(of: directory.journal) + [0x53, 0x47], to: directory.journal)

        let second = try open(connected: false, kinds: ["upload"])
        let report = try second.durable.restoreJobs()
        let issue = try #require(report.storeIssues.first)
        #expect(
            report.description
                == "restored 1 durable job (0 interrupted), 0 expired, 0 discarded, 0 kept, 1 store issue\n"
                + "restored up-1: waiting for [network]\n"
                + "store: \(issue)")
        try second.store.close()
    }
}
