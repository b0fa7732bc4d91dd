import SyncGate
import SyncGateTesting
import Testing

/// Chains with data, periodic jobs, progress and queries through the public scheduler, on a
/// ManualClock and a ManualSyncEnvironment; nothing sleeps.
@Suite("SyncScheduler job features", .timeLimit(.minutes(1)))
struct SyncSchedulerJobFeatureTests {
    struct Failure: Error {}

    let clock: ManualClock
    let manual: ManualSyncEnvironment
    let scheduler: SyncScheduler

    init() throws {
        (clock, manual, scheduler) = try ManualSchedulerSetup.make()
    }

    @Test("a chain hands each job's output to the next as its input")
    func chainWithData() async throws {
        let seen = LockedState<[Int?]>([])
        let handles = try scheduler.submit(chain: [
            SyncJob(id: "fetch") { context in context.setOutput(20) },
            SyncJob(id: "double") { context in
                let value = context.input(Int.self, from: "fetch")
                seen.withLock { $0.append(value) }
                context.setOutput((value ?? 0) * 2)
            },
            SyncJob(id: "store") { context in
                let value: Int? = context.input()
                seen.withLock { $0.append(value) }
            },
        ])
        for handle in handles { #expect(try await handle.outcome() == .succeeded) }
        #expect(seen.withLock { $0 } == [20, 40])
        #expect(scheduler.job(id: "store")?.dependsOn == ["double"])
    }

    @Test("a failed link fails the rest of the chain, naming it")
    func chainFailure() async throws {
        let handles = try scheduler.submit(chain: [
            SyncJob(id: "first") { _ in throw Failure() },
            SyncJob(id: "second") { _ in },
        ])
        #expect(
            try await handles[1].outcome()
                == .failed(SyncJobError.dependencyDidNotSucceed(id: "first", outcome: .failed(Failure()))))
    }

    @Test("an invalid link rejects the chain before any job is submitted, naming the job and field")
    func chainValidation() throws {
        let refused = refusal(
            of: #expect(throws: SyncSchedulerError.self) {
                try scheduler.submit(chain: [SyncJob(id: "a") { _ in }, SyncJob(id: "b", tags: [""]) { _ in }])
            })
        #expect(refused?.reason == "job \"b\": tags must not contain an empty tag")
        #expect(scheduler.jobs().isEmpty)
    }

    @Test("an appended job reads the output of the job it follows; appendOrReplace after a failure reads none")
    func appendedInputs() async throws {
        let seen = LockedState<[String?]>([])
        let gate = ControlledOperation()
        let first = try scheduler.submit(
            SyncJob(id: "first", uniqueKey: "k") { context in
                context.setOutput("from first")
                try await gate.operation(context)
            })
        let appended = try scheduler.submit(
            SyncJob(id: "appended", uniqueKey: "k", onDuplicate: .append) { context in
                seen.withLock { $0.append(context.input(String.self, from: "first")) }
                throw Failure()
            })
        let replacing = try scheduler.submit(
            SyncJob(id: "replacing", uniqueKey: "k", onDuplicate: .appendOrReplace) { context in
                seen.withLock { $0.append(context.input(String.self)) }
            })
        await gate.waitForStarts(1)
        #expect(scheduler.snapshot().job("replacing")?.pendingDependencies == ["appended"])
        gate.finish()
        #expect(try await first.outcome() == .succeeded)
        #expect(try await appended.outcome().isFailed)
        #expect(try await replacing.outcome() == .succeeded)
        #expect(seen.withLock { $0 } == ["from first", nil])
    }

    @Test("progress reports reach the handle's stream and the snapshot; a new attempt starts without any")
    func progress() async throws {
        let operation = ControlledOperation()
        let reported = ControlledOperation()
        let handle = try scheduler.submit(
            SyncJob(id: "upload") { context in
                for item in 1...4 { context.reportProgress(Double(item) / 4, message: "\(item) of 4") }
                try await reported.operation(context)
                try await operation.operation(context)
            })
        var updates = handle.progressUpdates.makeAsyncIterator()
        await reported.waitForStarts(1)
        #expect(handle.progress == SyncJobProgress(fraction: 1, message: "4 of 4"))
        #expect(await updates.next() == SyncJobProgress(fraction: 1, message: "4 of 4"))
        #expect(scheduler.snapshot().job("upload")?.summary == "upload: running attempt 1 [100% (4 of 4)]")
        #expect(scheduler.job(id: "upload")?.progress?.fraction == 1)
        reported.finish()
        await operation.waitForStarts(1)
        operation.finish()
        #expect(try await handle.outcome() == .succeeded)
        #expect(await updates.next() == nil)
    }

    @Test("after a job ends its last progress stays, on the handle and in queries alike")
    func progressAfterTheEnd() async throws {
        let handle = try scheduler.submit(
            SyncJob(id: "import") { context in
                context.reportProgress(0.4, message: "2 of 5")
                throw SyncJobError.doNotRetry(Failure())
            })
        #expect(try await handle.outcome().isFailed)
        let expected = SyncJobProgress(fraction: 0.4, message: "2 of 5")
        #expect(handle.progress == expected)
        #expect(scheduler.job(id: "import")?.progress == expected)
        #expect(scheduler.jobs(matching: SyncJobQuery(states: [.failed])).first?.progress == expected)
        #expect(scheduler.job(id: "import")?.description.hasSuffix("[40% (2 of 5)]") == true)
    }

    @Test("progress values are clamped and NaN counts as zero")
    func progressClamped() {
        #expect(SyncJobProgress(fraction: 1.5).fraction == 1)
        #expect(SyncJobProgress(fraction: -1).fraction == 0)
        #expect(SyncJobProgress(fraction: .nan).fraction == 0)
        #expect(SyncJobProgress(fraction: 0.426, message: "3 of 7").description == "42% (3 of 7)")
    }

    @Test("a periodic job runs once per period on the clock until cancelled")
    func periodicOnClock() async throws {
        let operation = ControlledOperation()
        var options = SyncJobOptions()
        options.period = SyncJobPeriod(every: .seconds(60), flex: .seconds(10))
        let handle = try scheduler.submit(SyncJob(id: "tick", options: options, operation: operation.operation))
        #expect(handle.state == .delayed(attempt: 1))
        clock.advance(by: .seconds(50))
        await operation.waitForStarts(1)
        operation.finish()
        for await state in handle.states where state == .delayed(attempt: 1) { break }
        #expect(scheduler.job(id: "tick")?.periods == .init(succeeded: 1, failed: 0, skipped: 0))
        // The next period began where the run's period ended (60 s): its window is 110–120 s.
        clock.advance(by: .seconds(60))
        await operation.waitForStarts(2)
        handle.cancel()
        #expect(try await handle.outcome() == .cancelled)
        #expect(scheduler.job(id: "tick")?.periods?.succeeded == 1)
    }

    @Test("a periodic run requeued by a loss keeps its window: offline for many periods, no start between windows")
    func periodicRequeueKeepsItsWindow() async throws {
        let operation = ControlledOperation()
        var options = SyncJobOptions()
        options.period = SyncJobPeriod(every: .seconds(60), flex: .seconds(10))
        let origin = clock.now
        var events = scheduler.events.makeAsyncIterator()
        let handle = try scheduler.submit(SyncJob(id: "tick", options: options, operation: operation.operation))
        clock.advance(by: .seconds(50))
        await operation.waitForStarts(1)
        manual.setConnectivity(.disconnected)
        while let event = await events.next() {
            if case .requeued = event { break }
        }
        // The scheduler's one timer is the close of the run's window at 60 s (no stale or missing timer).
        await clock.waitForSleeper(until: origin.advanced(by: .seconds(60)))
        clock.advance(to: origin.advanced(by: .seconds(60)))
        while let event = await events.next() {
            if case .periodEnded(_, let periods) = event {
                #expect(periods == .init(succeeded: 0, failed: 0, skipped: 1))
                break
            }
        }
        clock.advance(to: origin.advanced(by: .seconds(1_060)))
        await clock.waitForSleeper(until: origin.advanced(by: .seconds(1_070)))
        #expect(scheduler.job(id: "tick")?.periods == .init(succeeded: 0, failed: 0, skipped: 17))
        // Back online between windows: nothing starts before the window of 1 070–1 080 s opens.
        manual.setConnectivity(.connected(via: .wifi))
        #expect(operation.starts.value == 1)
        clock.advance(to: origin.advanced(by: .seconds(1_070)))
        await operation.waitForStarts(2)
        handle.cancel()
        #expect(try await handle.outcome() == .cancelled)
    }

    @Test("a job waiting for other jobs says which, on its handle, in queries and in the snapshot")
    func dependencyWaitsAreVisible() async throws {
        let operation = ControlledOperation()
        let upload = try scheduler.submit(SyncJob(id: "upload", uniqueKey: "photos", operation: operation.operation))
        await operation.waitForStarts(1)
        let next = try scheduler.submit(
            SyncJob(id: "upload-2", uniqueKey: "photos", onDuplicate: .append) { _ in })
        let index = try scheduler.submit(SyncJob(id: "index", dependsOn: ["upload", "upload-2"]) { _ in })
        #expect(next.state == .blocked(by: ["upload"]))
        #expect(index.state == .blocked(by: ["upload", "upload-2"]))
        #expect(index.state.description == "waiting for jobs upload, upload-2 to end")
        #expect(scheduler.job(id: "upload-2")?.state == .blocked(by: ["upload"]))
        let blocked = scheduler.jobs(matching: SyncJobQuery(states: [.blocked])).map(\.id)
        #expect(blocked == ["upload-2", "index"])
        #expect(scheduler.jobs(matching: SyncJobQuery(states: [.waiting])).isEmpty)
        #expect(scheduler.snapshot().job("index")?.state == .blocked(by: ["upload", "upload-2"]))
        // When the first upload ends, the index waits for the second only.
        var indexStates = index.states.makeAsyncIterator()
        operation.finish()
        #expect(try await upload.outcome() == .succeeded)
        while let state = await indexStates.next(), state != .blocked(by: ["upload-2"]) {}
        #expect(try await next.outcome() == .succeeded)
        #expect(try await index.outcome() == .succeeded)
    }

    @Test("keepExisting on a key with an appended chain returns the key's running job, not the last appended")
    func keepExistingReturnsTheOldest() async throws {
        let operation = ControlledOperation()
        let first = try scheduler.submit(SyncJob(id: "first", uniqueKey: "inbox", operation: operation.operation))
        await operation.waitForStarts(1)
        _ = try scheduler.submit(SyncJob(id: "second", uniqueKey: "inbox", onDuplicate: .append) { _ in })
        _ = try scheduler.submit(SyncJob(id: "third", uniqueKey: "inbox", onDuplicate: .append) { _ in })
        let kept = try scheduler.submit(SyncJob(id: "fourth", uniqueKey: "inbox", onDuplicate: .keepExisting) { _ in })
        #expect(kept === first)
        #expect(scheduler.job(id: "fourth") == nil)
        operation.finish()
        #expect(try await first.outcome() == .succeeded)
    }

    @Test("jobs in a serial group wait for the job ahead of them")
    func serialGroupWaitsNameTheJobAhead() async throws {
        let operation = ControlledOperation()
        let first = try scheduler.submit(SyncJob(id: "a", serialGroup: "db", operation: operation.operation))
        await operation.waitForStarts(1)
        let second = try scheduler.submit(SyncJob(id: "b", serialGroup: "db") { _ in })
        let third = try scheduler.submit(SyncJob(id: "c", serialGroup: "db") { _ in })
        #expect(second.state == .blocked(by: ["a"]))
        #expect(third.state == .blocked(by: ["b"]))
        second.cancel()
        #expect(try await second.outcome() == .cancelled)
        #expect(third.state == .blocked(by: ["a"]))
        operation.finish()
        #expect(try await first.outcome() == .succeeded)
        #expect(try await third.outcome() == .succeeded)
    }

    @Test("queries find finished jobs by tag and state, and cancel(uniqueKey:) ends an appended chain")
    func queriesAndCancelByKey() async throws {
        let done = try scheduler.submit(SyncJob(id: "done", tags: ["photos"]) { _ in })
        #expect(try await done.outcome() == .succeeded)
        manual.setConnectivity(.disconnected)
        let first = try scheduler.submit(SyncJob(id: "first", uniqueKey: "inbox") { _ in })
        let second = try scheduler.submit(
            SyncJob(id: "second", uniqueKey: "inbox", onDuplicate: .append) { _ in })
        #expect(second !== first)
        let found = scheduler.jobs(matching: SyncJobQuery(uniqueKeys: ["inbox"])).map(\.id)
        #expect(found == ["first", "second"])
        let finished = scheduler.jobs(matching: SyncJobQuery(tags: ["photos"], states: [.succeeded]))
        #expect(finished.map(\.id) == ["done"])
        #expect(finished.first?.attempts == 1)
        scheduler.cancel(uniqueKey: "inbox")
        #expect(try await first.outcome() == .cancelled)
        #expect(try await second.outcome() == .cancelled)
        #expect(scheduler.jobs(matching: SyncJobQuery(states: [.cancelled])).map(\.id) == ["second", "first"])
    }
}
