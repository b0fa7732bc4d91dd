import Foundation
import SyncGate
import SyncGateTesting
import Testing

struct UploadRequest: Codable, Sendable, Equatable {
    var photo: Int
}

/// A payload whose encoding always fails.
struct Unencodable: Codable, Sendable {
    struct Refused: Error {}
    init() {}
    init(from decoder: any Decoder) throws { throw Refused() }
    func encode(to encoder: any Encoder) throws { throw Refused() }
}

/// Durable jobs through the scheduler, with "restarts" made by closing the store and opening a new
/// scheduler and store on the same directory; ManualClock and a manual wall clock, nothing sleeps.
@Suite("Durable jobs", .timeLimit(.minutes(1)))
struct DurableSchedulerTests {
    let directory = TemporaryDirectory()
    let clock = ManualClock()
    let wall = ManualWallClock()

    /// One process lifetime: an environment, a scheduler and a store.
    struct Run {
        let manual: ManualSyncEnvironment
        let scheduler: SyncScheduler
        let durable: DurableScheduler
        let store: FileJobStore
        let uploads = LockedState<[(photo: Int, id: String, attempt: Int)]>([])
        let operation = ControlledOperation()
    }

    /// Starts a "process": opens the store, registers `upload` (unless told not to) and restores.
    func start(
        connected: Bool = false, registerUpload: Bool = true
    ) async throws -> (Run, DurableRestoreReport) {
        let manual = ManualSyncEnvironment(
            connectivity: connected ? .connected(via: .wifi) : .disconnected, clock: clock)
        let scheduler = try SyncScheduler(
            environment: manual.environment, configuration: .init(maxConcurrentJobs: 2, randomSource: { 0.5 }),
            clock: clock)
        let store = try FileJobStore(directory: directory.path)
        let durable = DurableScheduler(scheduler: scheduler, store: store, wallClock: wall.function)
        let run = Run(manual: manual, scheduler: scheduler, durable: durable, store: store)
        if registerUpload {
            try durable.register("upload", payload: UploadRequest.self) { request, context in
                run.uploads.withLock { $0.append((request.photo, context.jobID, context.attempt)) }
                try await run.operation.operation(context)
            }
        }
        let report = try durable.restoreJobs()
        return (run, report)
    }

    func storedIDs(_ run: Run) throws -> [String] {
        try run.store.load().jobs.map(\.id)
    }

    @Test("shutdown ends the work, closes the store and reports what the next launch runs; nothing is failed")
    func shutdownLeavesJobsForTheNextLaunch() async throws {
        let (run, _) = try await start()
        let first = try run.durable.submit(
            DurableJob(id: "up-1", kind: "upload", payload: UploadRequest(photo: 1), uniqueKey: "album"))
        let appended = try run.durable.submit(
            DurableJob(
                id: "up-2", kind: "upload", payload: UploadRequest(photo: 2), uniqueKey: "album", onDuplicate: .append
            ))
        let report = await run.durable.shutdown(gracePeriod: .zero)
        #expect(report.resumeNextLaunch == ["up-1", "up-2"])
        #expect(report.unwrittenRecords == 0)
        #expect(report.storeError == nil)
        #expect(
            report.description
                == "shut down: 2 durable jobs left for the next launch (up-1, up-2), 0 kept, 0 unwritten records")
        // Nothing happened to either job in this process: neither reports an end that did not happen.
        #expect(try await first.outcome() == .cancelled)
        #expect(try await appended.outcome() == .cancelled)
        // The store is closed: the same directory opens again, and both jobs come back and run.
        let (next, restored) = try await start(connected: true)
        #expect(restored.restored.map(\.id) == ["up-1", "up-2"])
        await next.operation.waitForStarts(1)
        next.operation.finish()
        await next.operation.waitForStarts(2)
        next.operation.finish()
        for handle in restored.restored { #expect(try await handle.outcome() == .succeeded) }
        #expect(try storedIDs(next).isEmpty)
        _ = await next.durable.shutdown(gracePeriod: .zero)
    }

    @Test(
        "a job that fails during the shutdown's grace period with attempts left resolves cancelled and retries next launch"
    )
    func failureDuringGraceIsLeftForTheNextLaunch() async throws {
        struct Failure: Error {}
        let (run, _) = try await start(connected: true)
        var job = DurableJob(id: "up-1", kind: "upload", payload: UploadRequest(photo: 1))
        job.retry = .fixed(delay: .seconds(30), maxAttempts: 3)
        let handle = try run.durable.submit(job)
        await run.operation.waitForStarts(1)
        let deadline = clock.now.advanced(by: .seconds(10))
        async let shutdown = run.durable.shutdown(gracePeriod: .seconds(10))
        await clock.waitForSleeper(until: deadline)  // the grace period runs
        run.operation.finish(.failure(Failure()))
        let report = await shutdown
        #expect(try await handle.outcome() == .cancelled)
        #expect(report.resumeNextLaunch == ["up-1"])
        let probe = try FileJobStore(directory: directory.path)
        let stored = try #require(try probe.load().jobs.first)
        try probe.close()
        #expect(stored.failures == 1)
        #expect(stored.retryAt == wall.now.addingTimeInterval(30))

        // The next launch runs attempt 2 once the backoff is over.
        let (next, restored) = try await start(connected: true)
        let again = try #require(restored.restored.first)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(30))
        await next.operation.waitForStarts(1)
        next.operation.finish()
        #expect(try await again.outcome() == .succeeded)
        #expect(next.uploads.withLock { $0.map(\.attempt) } == [2])
        _ = await next.durable.shutdown(gracePeriod: .zero)
    }

    @Test("a durable job runs its handler with its payload, with the same events, and leaves the store")
    func runsAndLeaves() async throws {
        let (run, report) = try await start()
        #expect(report.restored.isEmpty)
        let events = run.scheduler.events
        let handle = try run.durable.submit(
            DurableJob(id: "up-1", kind: "upload", payload: UploadRequest(photo: 42)))
        #expect(try storedIDs(run) == ["up-1"])
        run.manual.setConnectivity(.connected(via: .wifi))
        await run.operation.waitForStarts(1)
        #expect(run.uploads.withLock { $0.map(\.photo) } == [42])
        run.operation.finish()
        #expect(try await handle.outcome().state == .succeeded)
        #expect(try storedIDs(run).isEmpty)
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == .submitted(id: "up-1"))
        #expect(await iterator.next() == .started(id: "up-1", attempt: 1))
        #expect(await iterator.next() == .succeeded(id: "up-1"))
    }

    @Test("a waiting job survives a restart and runs in the next process")
    func survivesRestart() async throws {
        let (first, _) = try await start()
        try first.durable.submit(DurableJob(id: "up-1", kind: "upload", payload: UploadRequest(photo: 1)))
        try first.durable.submit(DurableJob(id: "up-2", kind: "upload", payload: UploadRequest(photo: 2)))
        try first.store.close()

        let (second, report) = try await start()
        #expect(report.restored.map(\.id) == ["up-1", "up-2"])
        #expect(report.interrupted.isEmpty)
        // ControlledOperation holds one attempt at a time: queue both results before they start.
        second.operation.finish()
        second.operation.finish()
        second.manual.setConnectivity(.connected(via: .wifi))
        for handle in report.restored { #expect(try await handle.outcome().state == .succeeded) }
        #expect(Set(second.uploads.withLock { $0.map(\.photo) }) == [1, 2])
        #expect(try storedIDs(second).isEmpty)
    }

    @Test("a job running at the crash runs again as the same attempt, and is reported as interrupted")
    func interruptedRunsAgain() async throws {
        let (first, _) = try await start(connected: true)
        try first.durable.submit(DurableJob(id: "up-1", kind: "upload", payload: UploadRequest(photo: 1)))
        await first.operation.waitForStarts(1)
        try first.store.close()  // the process "dies" with the attempt running

        let (second, report) = try await start(connected: true)
        #expect(report.interrupted == ["up-1"])
        await second.operation.waitForStarts(1)
        #expect(second.uploads.withLock { $0.map(\.attempt) } == [1])
        #expect(second.uploads.withLock { $0.map(\.id) } == ["up-1"])
        second.operation.finish()
        #expect(try await report.restored[0].outcome().state == .succeeded)
        first.operation.finish()
    }

    @Test("why a requeued job's attempt was stopped survives a restart, until its next attempt starts")
    func stopReasonSurvivesRestart() async throws {
        let (first, _) = try await start(connected: true)
        let events = first.scheduler.events
        try first.durable.submit(DurableJob(id: "up-1", kind: "upload", payload: UploadRequest(photo: 1)))
        await first.operation.waitForStarts(1)
        first.manual.setConnectivity(.disconnected)
        // The journal's hook saw the stop before the stream gets the requeue that follows it.
        for await event in events where event == .requeued(id: "up-1", lost: .network) { break }
        let lost = SyncJobStopReason.requirementsLost(.network, conditions: [])
        try first.store.close()
        let reopened = try FileJobStore(directory: directory.path)
        #expect(try reopened.load().jobs.map(\.lastStopReason) == [lost])
        try reopened.close()

        let (second, report) = try await start()
        let handle = try #require(report.restored.first)
        #expect(handle.stopReason == lost)
        #expect(second.scheduler.job(id: "up-1")?.stopReason == lost)
        #expect(second.scheduler.snapshot().job("up-1")?.stopReason == lost)
        second.manual.setConnectivity(.connected(via: .wifi))
        await second.operation.waitForStarts(1)
        #expect(handle.stopReason == nil)
        #expect(second.scheduler.job(id: "up-1")?.stopReason == nil)
        second.operation.finish()
        #expect(try await handle.outcome().state == .succeeded)
    }

    @Test("attempt counts and the remaining backoff survive a restart")
    func attemptsAndBackoff() async throws {
        let (first, _) = try await start(connected: true)
        try first.durable.submit(
            DurableJob(
                id: "up-1", kind: "upload", payload: UploadRequest(photo: 1),
                retry: .fixed(delay: .seconds(10), maxAttempts: 3)))
        await first.operation.waitForStarts(1)
        first.operation.finish(.failure(SyncJobError.runTimedOut))
        let retrying = try await waitUntilStored(first) { $0.first?.failures == 1 }
        #expect(retrying.first?.retryAt == wall.now.addingTimeInterval(10))
        try first.store.close()

        wall.advance(by: 4)
        let (second, report) = try await start(connected: true)
        let handle = try #require(report.restored.first)
        #expect(handle.state == .delayed(attempt: 2))
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(5))
        #expect(second.uploads.withLock { $0.count } == 0)
        clock.advance(by: .seconds(1))
        await second.operation.waitForStarts(1)
        #expect(second.uploads.withLock { $0.map(\.attempt) } == [2])
        second.operation.finish()
        #expect(try await handle.outcome().state == .succeeded)
    }

    @Test("a start deadline is a wall-clock instant: time spent not running counts")
    func startDeadlineAcrossRestart() async throws {
        let (first, _) = try await start()
        try first.durable.submit(
            DurableJob(
                id: "up-1", kind: "upload", payload: UploadRequest(photo: 1),
                options: SyncJobOptions(startDeadline: .seconds(30))))
        try first.store.close()
        wall.advance(by: 31)
        let (second, report) = try await start(connected: true)
        #expect(report.expired == ["up-1"])
        #expect(report.restored.isEmpty)
        #expect(try storedIDs(second).isEmpty)
    }

    @Test("a delay is a wall-clock instant: only what is left of it is waited after a restart")
    func delayAcrossRestart() async throws {
        let (first, _) = try await start()
        try first.durable.submit(
            DurableJob(
                id: "up-1", kind: "upload", payload: UploadRequest(photo: 1),
                options: SyncJobOptions(delay: .seconds(10))))
        try first.store.close()
        wall.advance(by: 7)
        let (second, report) = try await start(connected: true)
        #expect(report.restored.first?.state == .delayed(attempt: 1))
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(3))
        await second.operation.waitForStarts(1)
        second.operation.finish()
    }

    @Test("a job whose kind is not registered stays in the store and is reported, then restored later")
    func unknownKindKept() async throws {
        let (first, _) = try await start()
        try first.durable.submit(DurableJob(id: "up-1", kind: "upload", payload: UploadRequest(photo: 1)))
        try first.store.close()

        let (second, report) = try await start(connected: true, registerUpload: false)
        #expect(report.kept.map(\.id) == ["up-1"])
        #expect(report.kept.first?.reason == .unknownKind)
        #expect(second.durable.snapshot().kept.map(\.id) == ["up-1"])
        #expect(try storedIDs(second) == ["up-1"])

        try second.durable.register("upload", payload: UploadRequest.self) { _, _ in }
        let again = try second.durable.restoreJobs()
        #expect(again.restored.map(\.id) == ["up-1"])
        #expect(try await again.restored[0].outcome().state == .succeeded)
        #expect(second.durable.snapshot().kept.isEmpty)
    }

    @Test("a payload that no longer decodes is reported with its job id and kept")
    func undecodableKept() async throws {
        let (first, _) = try await start()
        try first.durable.submit(DurableJob(id: "up-1", kind: "upload", payload: UploadRequest(photo: 1)))
        try first.store.close()

        struct NewShape: Codable, Sendable { var url: String }
        let scheduler = SyncScheduler(environment: ManualSyncEnvironment(clock: clock).environment, clock: clock)
        let store = try FileJobStore(directory: directory.path)
        let durable = DurableScheduler(scheduler: scheduler, store: store, wallClock: wall.function)
        try durable.register("upload", payload: NewShape.self) { _, _ in }
        let report = try durable.restoreJobs()
        let kept = try #require(report.kept.first)
        #expect(kept.id == "up-1")
        guard case .undecodablePayload(let message) = kept.reason else {
            Issue.record("expected an undecodable payload, got \(kept.reason)")
            return
        }
        #expect(!message.isEmpty)
        #expect(kept.description.contains("up-1"))
        #expect(try store.load().jobs.map(\.id) == ["up-1"])
    }

    @Test("a payload that fails to encode makes submit throw and stores nothing")
    func encodeFailure() async throws {
        let (run, _) = try await start()
        try run.durable.register("broken", payload: Unencodable.self) { _, _ in }
        #expect(throws: DurableJobError.self) {
            try run.durable.submit(DurableJob(id: "b-1", kind: "broken", payload: Unencodable()))
        }
        #expect(try storedIDs(run).isEmpty)
        #expect(run.store.statistics.records == 0)
        #expect(run.scheduler.snapshot().jobs.isEmpty)
    }

    @Test("bad submissions throw one error type naming what is wrong, and store nothing")
    func badSubmissions() async throws {
        let manual = ManualSyncEnvironment(clock: clock)
        let scheduler = SyncScheduler(environment: manual.environment, clock: clock)
        let store = try FileJobStore(directory: directory.path)
        let durable = DurableScheduler(scheduler: scheduler, store: store)
        let job = DurableJob(kind: "upload", payload: UploadRequest(photo: 1))
        try durable.register("upload", payload: UploadRequest.self) { _, _ in }
        #expect(throws: DurableJobError.notRestored) { try durable.submit(job) }
        try durable.restoreJobs()
        #expect(throws: DurableJobError.unknownKind("nope")) {
            try durable.submit(DurableJob(kind: "nope", payload: UploadRequest(photo: 1)))
        }
        #expect(throws: DurableJobError.self) {
            try durable.submit(DurableJob(kind: "upload", payload: "a string"))
        }
        let badTimeout = refusal(
            of: #expect(throws: DurableJobError.self) {
                try durable.submit(
                    DurableJob(
                        id: "bad", kind: "upload", payload: UploadRequest(photo: 1),
                        options: SyncJobOptions(runTimeout: .zero)))
            })
        #expect(
            badTimeout
                == SyncJobRefusal(
                    jobID: "bad", field: "runTimeout", value: "0.0 seconds",
                    reason: "runTimeout must be positive, got 0.0 seconds"))
        #expect(throws: DurableJobError.invalidKind("kind must not be empty")) {
            try durable.register("", payload: UploadRequest.self) { _, _ in }
        }
        #expect(throws: DurableJobError.invalidKind("kind \"upload\" is already registered")) {
            try durable.register("upload", payload: UploadRequest.self) { _, _ in }
        }
        try scheduler.submit(SyncJob(id: "taken") { _ in })
        let taken = refusal(
            of: #expect(throws: DurableJobError.self) {
                try durable.submit(DurableJob(id: "taken", kind: "upload", payload: UploadRequest(photo: 1)))
            })
        #expect(taken?.field == "id")
        #expect(taken?.relatedJobs == ["taken"])
        #expect(taken?.reason == "id \"taken\" is already used by an unfinished job")
        await scheduler.shutdown(gracePeriod: .zero)
        #expect(throws: DurableJobError.rejected(.shutDown)) { try durable.submit(job) }
        #expect(try store.load().jobs.isEmpty)
    }

    @Test("unique keys hold across a restart")
    func uniqueKeyAcrossRestart() async throws {
        let (first, _) = try await start()
        try first.durable.submit(
            DurableJob(id: "up-1", kind: "upload", payload: UploadRequest(photo: 1), uniqueKey: "photo-1"))
        try first.store.close()
        let (second, report) = try await start()
        let duplicate = try second.durable.submit(
            DurableJob(id: "up-2", kind: "upload", payload: UploadRequest(photo: 1), uniqueKey: "photo-1"))
        #expect(duplicate === report.restored.first)
        #expect(try storedIDs(second) == ["up-1"])
        let replacement = try second.durable.submit(
            DurableJob(
                id: "up-3", kind: "upload", payload: UploadRequest(photo: 1), uniqueKey: "photo-1",
                onDuplicate: .replace))
        #expect(try await duplicate.outcome().state == .cancelled)
        #expect(try storedIDs(second) == ["up-3"])
        replacement.cancel()
    }

    @Test("serial groups hold across a restart, in the original order")
    func serialGroupAcrossRestart() async throws {
        let (first, _) = try await start()
        for index in 1...3 {
            try first.durable.submit(
                DurableJob(
                    id: "up-\(index)", kind: "upload", payload: UploadRequest(photo: index), serialGroup: "photos"))
        }
        try first.store.close()
        let (second, report) = try await start(connected: true)
        #expect(report.restored.map(\.id) == ["up-1", "up-2", "up-3"])
        for expected in 1...3 {
            await second.operation.waitForStarts(expected)
            #expect(second.scheduler.snapshot().runningCount == 1)
            second.operation.finish()
            #expect(try await report.restored[expected - 1].outcome().state == .succeeded)
        }
        #expect(second.uploads.withLock { $0.map(\.photo) } == [1, 2, 3])
    }

    @Test("shutdown keeps waiting durable jobs in the store; an explicit cancel removes them")
    func shutdownKeepsCancelRemoves() async throws {
        let (run, _) = try await start()
        let kept = try run.durable.submit(
            DurableJob(id: "up-1", kind: "upload", payload: UploadRequest(photo: 1)))
        let cancelled = try run.durable.submit(
            DurableJob(id: "up-2", kind: "upload", payload: UploadRequest(photo: 2)))
        cancelled.cancel()
        #expect(try await cancelled.outcome().state == .cancelled)
        await run.scheduler.shutdown(gracePeriod: .zero)
        #expect(try await kept.outcome().state == .cancelled)
        #expect(try storedIDs(run) == ["up-1"])
    }

    @Test("a restored job with a default id never collides with the next launch's default ids")
    func defaultIDsAcrossRestart() async throws {
        // Two generators stand for two launches of the app: each has its own prefix and counter.
        let firstLaunch = JobIDGenerator()
        let secondLaunch = JobIDGenerator()
        let (first, _) = try await start()
        let original = try JobIDGenerator.$current.withValue(firstLaunch) {
            try first.durable.submit(DurableJob(kind: "upload", payload: UploadRequest(photo: 1)))
        }
        await first.scheduler.shutdown(gracePeriod: .zero)
        try first.store.close()

        let (second, report) = try await start()
        #expect(report.restored.map(\.id) == [original.id])
        let next = try JobIDGenerator.$current.withValue(secondLaunch) {
            try second.durable.submit(DurableJob(kind: "upload", payload: UploadRequest(photo: 2)))
        }
        #expect(next.id != original.id)
        #expect(try storedIDs(second) == [original.id, next.id])
        second.operation.finish()
        second.operation.finish()
        second.manual.setConnectivity(.connected(via: .wifi))
        #expect(try await report.restored[0].outcome() == .succeeded)
        #expect(try await next.outcome() == .succeeded)
        #expect(Set(second.uploads.withLock { $0.map(\.id) }) == [original.id, next.id])
    }

    /// Waits until the store's jobs satisfy `predicate`, following the scheduler's events.
    func waitUntilStored(_ run: Run, _ predicate: ([StoredJob]) -> Bool) async throws -> [StoredJob] {
        let events = run.scheduler.events
        let jobs = try run.store.load().jobs
        if predicate(jobs) { return jobs }
        for await _ in events {
            let jobs = try run.store.load().jobs
            if predicate(jobs) { return jobs }
        }
        return try run.store.load().jobs
    }
}
