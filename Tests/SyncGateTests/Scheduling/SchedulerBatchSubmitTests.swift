import SyncGate
import SyncGateTesting
import Testing

/// `submit(contentsOf:)`: many jobs in a few critical sections, each judged as `submit(_:)` would judge
/// it; through the public scheduler on a ManualClock and a ManualSyncEnvironment; nothing sleeps.
@Suite("SyncScheduler batch submission", .timeLimit(.minutes(2)))
struct SchedulerBatchSubmitTests {
    let clock = ManualClock()
    let manual: ManualSyncEnvironment

    init() {
        manual = ManualSyncEnvironment(clock: clock)
        manual.setConnectivity(.connected(via: .wifi))
    }

    private func makeScheduler(maxConcurrentJobs: Int) throws -> SyncScheduler {
        try SyncScheduler(
            environment: manual.environment, configuration: .init(maxConcurrentJobs: maxConcurrentJobs),
            clock: clock)
    }

    @Test(
        "jobs submitted together run once each, in submission order, across critical sections",
        arguments: [0, 1, 63, 64, 65, 200])
    func runsInOrder(count: Int) async throws {
        let scheduler = try makeScheduler(maxConcurrentJobs: 1)
        let order = LockedState<[Int]>([])
        let handles = try scheduler.submit(
            contentsOf: (0..<count).map { index in
                SyncJob(id: "job-\(index)") { _ in order.withLock { $0.append(index) } }
            })
        #expect(handles.map(\.id) == (0..<count).map { "job-\($0)" })
        for handle in handles { #expect(try await handle.outcome() == .succeeded) }
        #expect(order.withLock { $0 } == Array(0..<count))
    }

    @Test("a job is judged as submit(_:) judges it: a kept duplicate returns the earlier handle, a dependency holds")
    func judgedLikeSingleSubmits() async throws {
        let scheduler = try makeScheduler(maxConcurrentJobs: 2)
        let gate = ControlledOperation()
        let order = LockedState<[String]>([])
        let handles = try scheduler.submit(contentsOf: [
            SyncJob(id: "first", uniqueKey: "inbox") { context in
                try await gate.operation(context)
                order.withLock { $0.append("first") }
            },
            SyncJob(id: "duplicate", uniqueKey: "inbox", onDuplicate: .keepExisting) { _ in
                order.withLock { $0.append("duplicate") }
            },
            SyncJob(id: "after", dependsOn: ["first"]) { _ in order.withLock { $0.append("after") } },
        ])
        #expect(handles.map(\.id) == ["first", "first", "after"])
        #expect(handles[1] === handles[0])
        await gate.waitForStarts(1)
        #expect(scheduler.snapshot().job("after")?.pendingDependencies == ["first"])
        #expect(scheduler.job(id: "duplicate") == nil)
        gate.finish()
        #expect(try await handles[2].outcome() == .succeeded)
        #expect(order.withLock { $0 } == ["first", "after"])
    }

    @Test("an invalid job rejects the batch before any job is submitted, naming the job and field")
    func invalidJobRejectsAll() throws {
        let scheduler = try makeScheduler(maxConcurrentJobs: 2)
        manual.setConnectivity(.disconnected)
        let refused = refusal(
            of: #expect(throws: SyncSchedulerError.self) {
                try scheduler.submit(contentsOf: [SyncJob(id: "a") { _ in }, SyncJob(id: "b", tags: [""]) { _ in }])
            })
        #expect(refused?.jobID == "b")
        #expect(refused?.field == "tags")
        #expect(refused?.reason == "job \"b\": tags must not contain an empty tag")
        #expect(scheduler.jobs().isEmpty)
    }

    @Test(
        "a job the scheduler rejects ends the batch: earlier jobs stay, later ones are not submitted, no demand leaks")
    func rejectedJobEndsBatch() async throws {
        let scheduler = try makeScheduler(maxConcurrentJobs: 2)
        manual.setConnectivity(.disconnected)
        let existing = try scheduler.submit(SyncJob(id: "taken") { _ in })
        // 70 jobs first, so the rejected one is in the second critical section.
        let before = (0..<70).map { SyncJob(id: "before-\($0)", requires: [.network, .storageNotLow]) { _ in } }
        let after = (0..<5).map { SyncJob(id: "after-\($0)", requires: [.network, .storageNotLow]) { _ in } }
        let taken = SyncJob(id: "taken", requires: [.network, .storageNotLow]) { _ in }
        let refused = refusal(
            of: #expect(throws: SyncSchedulerError.self) {
                try scheduler.submit(contentsOf: before + [taken] + after)
            })
        #expect(refused?.reason == "id \"taken\" is already used by an unfinished job")
        #expect(scheduler.jobs().map(\.id) == ["taken"] + before.map(\.id))
        #expect(manual.environment.demand.isNeeded(.storageNotLow), "the submitted jobs hold their demand")
        scheduler.cancelAll()
        #expect(try await existing.outcome() == .cancelled)
        #expect(scheduler.jobs(matching: SyncJobQuery(states: [.waiting])).isEmpty)
        #expect(!manual.environment.demand.isNeeded(.storageNotLow), "the rejected and unsubmitted jobs hold none")
    }

    @Test("after shutdown a batch is rejected and nothing is submitted")
    func rejectedAfterShutdown() async throws {
        let scheduler = try makeScheduler(maxConcurrentJobs: 2)
        await scheduler.shutdown(gracePeriod: .zero)
        #expect(throws: SyncSchedulerError.shutDown) {
            try scheduler.submit(contentsOf: [SyncJob(id: "a") { _ in }, SyncJob(id: "b") { _ in }])
        }
        #expect(scheduler.jobs().isEmpty)
        #expect(!manual.environment.demand.isNeeded(.storageNotLow))
    }
}
