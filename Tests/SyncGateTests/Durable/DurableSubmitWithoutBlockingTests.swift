import Foundation
import SyncGate
import SyncGateTesting
import Testing

/// `DurableScheduler.submitWithoutBlocking`: the same contract as `submit` (stored when it returns, the same
/// refusals, the same handle), reached by suspending the task instead of blocking its thread.
@Suite("Durable submit without blocking", .timeLimit(.minutes(1)))
struct DurableSubmitWithoutBlockingTests {
    let directory = TemporaryDirectory()
    let clock = ManualClock()

    /// A scheduler with no network, a store in the test's directory and the kind `upload`, restored.
    func start(restored: Bool = true) throws -> (ManualSyncEnvironment, SyncScheduler, DurableScheduler, FileJobStore) {
        let manual = ManualSyncEnvironment(connectivity: .disconnected, clock: clock)
        let scheduler = SyncScheduler(environment: manual.environment, clock: clock)
        let store = try FileJobStore(directory: directory.path)
        let durable = DurableScheduler(scheduler: scheduler, store: store)
        try durable.register("upload", payload: UploadRequest.self) { _, _ in }
        if restored { try durable.restoreJobs() }
        return (manual, scheduler, durable, store)
    }

    @Test("a job is in the store when the call returns, runs when its requirements hold, and survives a restart")
    func storedRunsAndSurvives() async throws {
        let (manual, _, durable, store) = try start()
        let first = try await durable.submitWithoutBlocking(
            DurableJob(id: "up-1", kind: "upload", payload: UploadRequest(photo: 1)))
        // A condition nobody sets keeps the second job waiting.
        try await durable.submitWithoutBlocking(
            DurableJob(
                id: "up-2", kind: "upload", payload: UploadRequest(photo: 2),
                options: SyncJobOptions(conditions: ["never-set"])))
        #expect(try store.load().jobs.map(\.id) == ["up-1", "up-2"])
        #expect(store.statistics.syncedBytes == store.statistics.bytes)
        manual.setConnectivity(.connected(via: .wifi))
        #expect(try await first.outcome().state == .succeeded)
        #expect(try store.load().jobs.map(\.id) == ["up-2"])
        try store.close()

        let (_, _, _, reopened) = try start(restored: false)
        #expect(try reopened.load().jobs.map(\.id) == ["up-2"])
    }

    /// A submission `submit` refuses, and what to set up before it.
    struct Refused: CustomTestStringConvertible, Sendable {
        let testDescription: String
        let restored: Bool
        let takenID: String?
        let job: @Sendable () -> any DurableSubmission

        init(
            _ description: String, restored: Bool = true, takenID: String? = nil,
            _ job: @escaping @Sendable () -> any DurableSubmission
        ) {
            self.testDescription = description
            self.restored = restored
            self.takenID = takenID
            self.job = job
        }
    }

    static let refused: [Refused] = [
        Refused("before restoreJobs", restored: false) { DurableJob(kind: "upload", payload: UploadRequest(photo: 1)) },
        Refused("an unknown kind") { DurableJob(kind: "nope", payload: UploadRequest(photo: 1)) },
        Refused("a payload of another type") { DurableJob(kind: "upload", payload: "a string") },
        Refused("a payload that does not encode") { DurableJob(id: "b-1", kind: "upload", payload: Unencodable()) },
        Refused("an invalid option") {
            DurableJob(
                id: "bad", kind: "upload", payload: UploadRequest(photo: 1), options: SyncJobOptions(runTimeout: .zero))
        },
        Refused("an id in use", takenID: "taken") {
            DurableJob(id: "taken", kind: "upload", payload: UploadRequest(photo: 1))
        },
    ]

    @Test("it refuses what submit refuses, with the same error, and stores nothing", arguments: refused)
    func refusesLikeSubmit(_ refused: Refused) async throws {
        let (_, scheduler, durable, store) = try start(restored: refused.restored)
        if let takenID = refused.takenID { try scheduler.submit(SyncJob(id: takenID) { _ in }) }
        let blocking = #expect(throws: DurableJobError.self) { try refused.job().submit(to: durable) }
        let suspending = await #expect(throws: DurableJobError.self) {
            try await refused.job().submitWithoutBlocking(to: durable)
        }
        #expect(blocking != nil)
        #expect(suspending == blocking)
        #expect(try store.load().jobs.isEmpty)
    }

    @Test("an unfinished job with the same unique key is returned under keepExisting, and nothing more is stored")
    func keepExistingReturnsTheExistingHandle() async throws {
        let (_, _, durable, store) = try start()
        let options = SyncJobOptions(uniqueKey: "photo", onDuplicate: .keepExisting)
        let first = try await durable.submitWithoutBlocking(
            DurableJob(id: "up-1", kind: "upload", payload: UploadRequest(photo: 1), options: options))
        let second = try await durable.submitWithoutBlocking(
            DurableJob(id: "up-2", kind: "upload", payload: UploadRequest(photo: 2), options: options))
        #expect(second.id == first.id)
        #expect(try store.load().jobs.map(\.id) == ["up-1"])
    }
}

/// A durable job of any payload type, submitted either way.
protocol DurableSubmission: Sendable {
    func submit(to durable: DurableScheduler) throws(DurableJobError)
    func submitWithoutBlocking(to durable: DurableScheduler) async throws(DurableJobError)
}

extension DurableJob: DurableSubmission {
    func submit(to durable: DurableScheduler) throws(DurableJobError) {
        try durable.submit(self)
    }

    func submitWithoutBlocking(to durable: DurableScheduler) async throws(DurableJobError) {
        try await durable.submitWithoutBlocking(self)
    }
}
