import SyncGate
import SyncGateTesting
import Testing

/// The scheduler shell end to end, on a ManualClock and a ManualSyncEnvironment; nothing sleeps.
@Suite("SyncScheduler", .timeLimit(.minutes(2)))
struct SyncSchedulerTests {
    struct Failure: Error {}

    let clock = ManualClock()
    let manual: ManualSyncEnvironment
    let scheduler: SyncScheduler

    init() throws {
        manual = ManualSyncEnvironment(account: .available, clock: clock)
        scheduler = try SyncScheduler(
            environment: manual.environment,
            configuration: .init(maxConcurrentJobs: 2, randomSource: { 0.5 }),
            clock: clock
        )
    }

    @Test("a job waits for its requirements, starts when they hold, and succeeds")
    func waitsThenRuns() async throws {
        let events = scheduler.events
        let operation = ControlledOperation()
        let handle = try scheduler.submit(
            SyncJob(id: "sync", requires: .syncReady, operation: operation.operation))
        #expect(handle.state == .waiting(unmet: .network, conditions: []))
        manual.setConnectivity(.connected(via: .wifi))
        await operation.waitForStarts(1)
        #expect(handle.state == .running(attempt: 1))
        operation.finish()
        #expect(try await handle.outcome().state == .succeeded)
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == .submitted(id: "sync"))
        #expect(await iterator.next() == .started(id: "sync", attempt: 1))
        #expect(await iterator.next() == .succeeded(id: "sync"))
    }

    @Test("a waiting job's state and the snapshot say exactly what blocks it, live")
    func whyWaiting() async throws {
        let handle = try scheduler.submit(
            SyncJob(id: "upload", requires: .largeTransfer, conditions: ["photos-selected"]) { _ in }
        )
        #expect(handle.state == .waiting(unmet: .largeTransfer, conditions: ["photos-selected"]))
        manual.setConnectivity(.connected(via: .cellular, isExpensive: true))
        #expect(handle.state == .waiting(unmet: .unmetered, conditions: ["photos-selected"]))
        let snapshot = scheduler.snapshot()
        let job = try #require(snapshot.job("upload"))
        #expect(job.unmetRequirements == .unmetered)
        #expect(job.unmetConditions == ["photos-selected"])
        #expect(job.summary == "upload: waiting for [unmetered, photos-selected]")
        handle.cancel()
        #expect(try await handle.outcome().state == .cancelled)
    }

    @Test("the states stream follows the blockers while waiting and ends after the terminal state")
    func statesStream() async throws {
        let operation = ControlledOperation()
        let handle = try scheduler.submit(
            SyncJob(id: "a", requires: .largeTransfer, operation: operation.operation))
        var states = handle.states.makeAsyncIterator()
        #expect(await states.next() == .waiting(unmet: .largeTransfer, conditions: []))
        manual.setConnectivity(.connected(via: .cellular, isExpensive: true))
        #expect(await states.next() == .waiting(unmet: .unmetered, conditions: []))
        manual.setConnectivity(.connected(via: .wifi))
        await operation.waitForStarts(1)
        var seen: [SyncJobState] = []
        operation.finish()
        while let state = await states.next() { seen.append(state) }
        #expect(seen.last == .succeeded)
    }

    @Test("requirements not monitored are treated as met, and the snapshot says so")
    func treatedAsMet() async throws {
        let linuxLike = ManualSyncEnvironment(
            connectivity: .connected(via: .wiredEthernet), monitoring: [.network, .power])
        let scheduler = SyncScheduler(environment: linuxLike.environment, clock: clock)
        let operation = ControlledOperation()
        let handle = try scheduler.submit(
            SyncJob(id: "sync", requires: .syncReady, operation: operation.operation))
        await operation.waitForStarts(1)
        let job = try #require(scheduler.snapshot().job("sync"))
        #expect(job.requirementsTreatedAsMet == .accountReady)
        #expect(job.summary.hasSuffix("(account-ready not monitored, treated as met)"))
        operation.finish()
        _ = try await handle.outcome()
    }

    @Test("maxConcurrentJobs is never exceeded, checked at every start")
    func slotLimit() async throws {
        let live = StatusBroadcast(0)
        let peak = StatusBroadcast(0)
        manual.setConnectivity(.connected(via: .wifi))
        var handles: [SyncJobHandle] = []
        for index in 0..<20 {
            handles.append(
                try scheduler.submit(
                    SyncJob(id: "job-\(index)") { _ in
                        live.update { $0 += 1 }
                        peak.update { $0 = max($0, live.value) }
                        await Task.yield()
                        live.update { $0 -= 1 }
                    }
                )
            )
        }
        for handle in handles { #expect(try await handle.outcome().state == .succeeded) }
        #expect(peak.value <= 2)
        #expect(peak.value >= 1)
    }

    @Test(
        "a change that releases more jobs than one critical section starts has started all of them when it returns, in order"
    )
    func largeReleaseInBatches() async throws {
        let count = 700  // more than two batches of the shell
        let scheduler = try SyncScheduler(
            environment: manual.environment, configuration: .init(maxConcurrentJobs: count - 50), clock: clock)
        let events = scheduler.events
        let open = StatusBroadcast(false)
        let operation: SyncJob.Operation = { _ in
            for await isOpen in open.stream() where isOpen { return }
        }
        var handles: [SyncJobHandle] = []
        var expected: [[String]] = [[], [], []]
        for index in 0..<count {
            let lane = index % 3
            let id = "job-\(index)"
            expected[lane].append(id)
            handles.append(
                try scheduler.submit(
                    SyncJob(id: id, priority: [.high, .normal, .low][lane], operation: operation)))
        }
        manual.setConnectivity(.connected(via: .wifi))
        let order = Array(expected.joined())
        for (index, handle) in handles.enumerated() {
            let started = order.firstIndex(of: handle.id)! < count - 50
            #expect(handle.state == (started ? .running(attempt: 1) : .waiting(unmet: [], conditions: [])), "\(index)")
        }
        var startedIDs: [String] = []
        for await event in events {
            if case .started(let id, _) = event { startedIDs.append(id) }
            if startedIDs.count == count - 50 { break }
        }
        #expect(startedIDs == Array(order.prefix(count - 50)))
        open.send(true)
        for handle in handles { #expect(try await handle.outcome().state == .succeeded) }
    }

    @Test("run(requiring:) waits, runs in a slot and returns the operation's value")
    func runReturnsValue() async throws {
        let scheduler = scheduler
        let task = Task { try await scheduler.run(requiring: .network) { context in context.attempt * 42 } }
        manual.setConnectivity(.connected(via: .wifi))
        #expect(try await task.value == 42)
    }

    @Test("cancelling the caller of run(requiring:) while it waits cancels the job at once")
    func runCancelledWhileWaiting() async throws {
        let scheduler = scheduler
        let events = scheduler.events
        let task = Task { try await scheduler.run(requiring: .network) { _ in 1 } }
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next().map { if case .submitted = $0 { true } else { false } } == true)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(scheduler.snapshot().jobs.isEmpty)
    }

    @Test("cancelling the caller of run(requiring:) while it runs cancels the job's task")
    func runCancelledWhileRunning() async throws {
        let scheduler = scheduler
        let operation = ControlledOperation()
        manual.setConnectivity(.connected(via: .wifi))
        let task = Task {
            try await scheduler.run(requiring: .network) { context in
                try await operation.operation(context)
                return 1
            }
        }
        await operation.waitForStarts(1)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(operation.cancellations.value == 1)
    }

    @Test("a run timeout fires on the clock, cancels the attempt and fails with runTimedOut")
    func runTimeout() async throws {
        let operation = ControlledOperation()
        manual.setConnectivity(.connected(via: .wifi))
        let handle = try scheduler.submit(
            SyncJob(id: "slow", runTimeout: .seconds(30), operation: operation.operation))
        await operation.waitForStarts(1)
        clock.advance(by: .seconds(30))
        guard case .failed(let error) = try await handle.outcome() else {
            Issue.record("expected a failure")
            return
        }
        #expect("\(error)" == "\(SyncJobError.runTimedOut)")
    }

    @Test("an attempt past its run timeout keeps its slot until it returns, and the snapshot shows it")
    func pastTimeoutKeepsSlot() async throws {
        let stubborn = ControlledOperation(ignoresCancellation: true)
        manual.setConnectivity(.connected(via: .wifi))
        let handle = try scheduler.submit(
            SyncJob(id: "stubborn", runTimeout: .seconds(1), operation: stubborn.operation))
        await stubborn.waitForStarts(1)
        clock.advance(by: .seconds(1))
        await stubborn.waitForCancellations(1)
        let job = try #require(scheduler.snapshot().job("stubborn"))
        #expect(job.isPastRunTimeout)
        #expect(scheduler.runningCount == 1)
        stubborn.finish(.failure(Failure()))
        #expect(try await handle.outcome().isFailed)
        #expect(scheduler.runningCount == 0)
    }

    @Test("retries wait out the backoff on the clock, then run again")
    func retryWithBackoff() async throws {
        let operation = ControlledOperation()
        manual.setConnectivity(.connected(via: .wifi))
        let handle = try scheduler.submit(
            SyncJob(
                id: "flaky", retry: .exponential(initial: .seconds(2), maxAttempts: 3, jitter: 0.5),
                operation: operation.operation)
        )
        await operation.waitForStarts(1)
        operation.finish(.failure(Failure()))
        for await state in handle.states where state == .delayed(attempt: 2) { break }
        clock.advance(by: .milliseconds(1_999))
        #expect(handle.state == .delayed(attempt: 2))
        clock.advance(by: .milliseconds(1))
        await operation.waitForStarts(2)
        operation.finish(.failure(Failure()))
        for await state in handle.states where state == .delayed(attempt: 3) { break }
        clock.advance(by: .seconds(4))
        await operation.waitForStarts(3)
        operation.finish()
        #expect(try await handle.outcome().state == .succeeded)
    }

    @Test("a job not started before its start deadline expires on the clock")
    func startDeadline() async throws {
        let handle = try scheduler.submit(SyncJob(id: "late", startDeadline: .seconds(10)) { _ in })
        clock.advance(by: .seconds(10))
        #expect(try await handle.outcome().state == .expired)
        let scheduler = scheduler
        let events = scheduler.events
        let expiring = Task { try await scheduler.run(requiring: .network, startDeadline: .seconds(5)) { _ in 1 } }
        for await event in events {
            if case .submitted = event { break }
        }
        clock.advance(by: .seconds(5))
        await #expect(throws: SyncJobError.self) { try await expiring.value }
    }

    @Test("an initial delay holds the job on the clock")
    func initialDelay() async throws {
        manual.setConnectivity(.connected(via: .wifi))
        let operation = ControlledOperation()
        let handle = try scheduler.submit(
            SyncJob(id: "later", options: SyncJobOptions(delay: .seconds(5)), operation: operation.operation))
        #expect(handle.state == .delayed(attempt: 1))
        clock.advance(by: .seconds(5))
        await operation.waitForStarts(1)
        operation.finish()
        #expect(try await handle.outcome().state == .succeeded)
    }

    @Test("requirements lost mid-run requeue the job without consuming an attempt")
    func lossRequeues() async throws {
        let operation = ControlledOperation()
        manual.setConnectivity(.connected(via: .wifi))
        let events = scheduler.events
        let handle = try scheduler.submit(
            SyncJob(id: "upload", requires: .largeTransfer, operation: operation.operation))
        await operation.waitForStarts(1)
        manual.setConnectivity(.connected(via: .cellular, isExpensive: true))
        for await event in events where event == .requeued(id: "upload", lost: .unmetered) { break }
        #expect(handle.state == .waiting(unmet: .unmetered, conditions: []))
        manual.setConnectivity(.connected(via: .wifi))
        await operation.waitForStarts(2)
        #expect(handle.state == .running(attempt: 1))
        operation.finish()
        #expect(try await handle.outcome().state == .succeeded)
    }

    @Test("with one slot, cancelling the second job leaves the first one's outcome alone")
    func reusedTaskCancelsOnlyItsJob() async throws {
        let scheduler = try SyncScheduler(
            environment: manual.environment, configuration: .init(maxConcurrentJobs: 1), clock: clock)
        let first = ControlledOperation()
        let second = ControlledOperation()
        let a = try scheduler.submit(SyncJob(id: "a", requires: [], operation: first.operation))
        let b = try scheduler.submit(SyncJob(id: "b", requires: [], operation: second.operation))
        await first.waitForStarts(1)
        first.finish()
        await second.waitForStarts(1)
        #expect(try await a.outcome().state == .succeeded)
        b.cancel()
        #expect(try await b.outcome().state == .cancelled)
        #expect(first.cancellations.value == 0)
        #expect(second.cancellations.value == 1)
        let c = try scheduler.submit(SyncJob(id: "c", requires: []) { _ in })
        #expect(try await c.outcome().state == .succeeded)
    }

    @Test(
        "with one slot, the job started by the end of a cancelled or timed-out attempt runs uncancelled",
        arguments: ["cancelled", "timedOut"])
    func jobAfterStoppedAttemptIsNotCancelled(stop: String) async throws {
        let scheduler = try SyncScheduler(
            environment: manual.environment, configuration: .init(maxConcurrentJobs: 1), clock: clock)
        let first = ControlledOperation(ignoresCancellation: true)
        let sawCancellation = LockedState<[Bool]>([])
        let a = try scheduler.submit(
            SyncJob(
                id: "a", requires: [], runTimeout: stop == "timedOut" ? .seconds(5) : nil, operation: first.operation))
        let b = try scheduler.submit(
            SyncJob(id: "b", requires: []) { _ in sawCancellation.withLock { $0.append(Task.isCancelled) } })
        await first.waitForStarts(1)
        if stop == "cancelled" {
            a.cancel()
        } else {
            await clock.waitForSleepers(1)
            clock.advance(by: .seconds(5))
        }
        await first.waitForCancellations(1)
        first.finish()
        _ = try await a.outcome()
        #expect(try await b.outcome().state == .succeeded)
        #expect(sawCancellation.withLock { $0 } == [false])
    }

    @Test("with one slot, jobs run back to back each see only their own cancellation")
    func backToBackJobsKeepTheirOwnCancellation() async throws {
        let scheduler = try SyncScheduler(
            environment: manual.environment, configuration: .init(maxConcurrentJobs: 1), clock: clock)
        let operations = (0..<40).map { _ in ControlledOperation() }
        let handles = try operations.enumerated().map { index, operation in
            try scheduler.submit(SyncJob(id: "job\(index)", requires: [], operation: operation.operation))
        }
        for (index, operation) in operations.enumerated() {
            await operation.waitForStarts(1)
            if index % 3 == 1 {
                handles[index].cancel()
                await operation.waitForCancellations(1)
            } else {
                operation.finish()
            }
            let expected: SyncJobState = index % 3 == 1 ? .cancelled : .succeeded
            #expect(try await handles[index].outcome().state == expected)
        }
        #expect(operations.map(\.cancellations.value) == (0..<40).map { $0 % 3 == 1 ? 1 : 0 })
    }

    @Test(
        "with one slot, jobs submitted one at a time see only their own cancellation",
        arguments: [false, true])
    func oneAtATimeJobsKeepTheirOwnCancellation(byUniqueKey: Bool) async throws {
        let scheduler = try SyncScheduler(
            environment: manual.environment, configuration: .init(maxConcurrentJobs: 1), clock: clock)
        var cancellations: [Int] = []
        for index in 0..<30 {
            let operation = ControlledOperation()
            let key = "key\(index)"
            let handle = try scheduler.submit(
                SyncJob(id: "job\(index)", requires: [], uniqueKey: key, operation: operation.operation))
            await operation.waitForStarts(1)
            let cancelled = index % 3 == 1
            if cancelled {
                if byUniqueKey {
                    let replacement = try scheduler.submit(
                        SyncJob(id: "replacement\(index)", requires: [], uniqueKey: key, onDuplicate: .replace) { _ in }
                    )
                    #expect(try await replacement.outcome().state == .succeeded)
                } else {
                    handle.cancel()
                }
                await operation.waitForCancellations(1)
            } else {
                operation.finish()
            }
            #expect(try await handle.outcome().state == (cancelled ? .cancelled : .succeeded))
            cancellations.append(operation.cancellations.value)
        }
        #expect(cancellations == (0..<30).map { $0 % 3 == 1 ? 1 : 0 })
    }

    @Test("a scheduler that goes away cancels its waiting and running jobs")
    func releaseCancels() async throws {
        let operation = ControlledOperation()
        var scheduler: SyncScheduler? = SyncScheduler(environment: manual.environment, clock: clock)
        let waiting = try scheduler?.submit(SyncJob(id: "waiting", requires: .network) { _ in })
        let running = try scheduler?.submit(SyncJob(id: "running", requires: [], operation: operation.operation))
        await operation.waitForStarts(1)
        scheduler = nil
        #expect(try await waiting?.outcome().state == .cancelled)
        #expect(try await running?.outcome().state == .cancelled)
        #expect(operation.cancellations.value == 1)
    }

    @Test("a unique key keeps the existing job or replaces it")
    func uniqueness() async throws {
        let first = try scheduler.submit(SyncJob(id: "refresh-1", uniqueKey: "refresh") { _ in })
        let kept = try scheduler.submit(SyncJob(id: "refresh-2", uniqueKey: "refresh") { _ in })
        #expect(kept === first)
        let replacement = try scheduler.submit(
            SyncJob(id: "refresh-3", uniqueKey: "refresh", onDuplicate: .replace) { _ in }
        )
        #expect(try await first.outcome().state == .cancelled)
        manual.setConnectivity(.connected(via: .wifi))
        #expect(try await replacement.outcome().state == .succeeded)
    }

    @Test("shutdown cancels waiting jobs, gives running ones the grace period, then cancels them")
    func shutdown() async throws {
        manual.setConnectivity(.connected(via: .wifi))
        let polite = ControlledOperation()
        let stubborn = ControlledOperation()
        let politeHandle = try scheduler.submit(SyncJob(id: "polite", operation: polite.operation))
        let stubbornHandle = try scheduler.submit(SyncJob(id: "stubborn", operation: stubborn.operation))
        let waiting = try scheduler.submit(
            SyncJob(id: "waiting", requires: .externalPower.union(.unmetered)) { _ in })
        manual.setPower(PowerStatus(isOnExternalPower: false))
        await polite.waitForStarts(1)
        await stubborn.waitForStarts(1)
        let scheduler = scheduler
        let shutdown = Task { await scheduler.shutdown(gracePeriod: .seconds(10)) }
        #expect(try await waiting.outcome().state == .cancelled)
        polite.finish()
        #expect(try await politeHandle.outcome().state == .succeeded)
        #expect(throws: SyncSchedulerError.shutDown) { try scheduler.submit(SyncJob { _ in }) }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(10))
        await shutdown.value
        #expect(try await stubbornHandle.outcome().state == .cancelled)
        #expect(scheduler.snapshot().jobs.isEmpty)
    }

    @Test(
        "bad jobs are rejected with the field and value, and nothing queued changes",
        arguments: [
            (SyncJob(id: "") { _ in }, "id must not be empty"),
            (SyncJob(conditions: [""]) { _ in }, "conditions must not contain an empty name"),
            (
                SyncJob(options: SyncJobOptions(delay: .seconds(-1))) { _ in },
                "delay must not be negative, got -1.0 seconds"
            ),
            (SyncJob(startDeadline: .seconds(-1)) { _ in }, "startDeadline must not be negative, got -1.0 seconds"),
            (SyncJob(runTimeout: .seconds(-2)) { _ in }, "runTimeout must be positive, got -2.0 seconds"),
            (
                SyncJob(retry: .fixed(delay: .seconds(1), maxAttempts: 0)) { _ in },
                "retry.maxAttempts must be at least 1, got 0"
            ),
            (SyncJob(retry: .exponential(initial: .zero)) { _ in }, "retry.initial must be positive, got 0.0 seconds"),
            (SyncJob(retry: .exponential(multiplier: 0.5)) { _ in }, "retry.multiplier must be at least 1, got 0.5"),
            (SyncJob(retry: .exponential(jitter: 2)) { _ in }, "retry.jitter must be in 0...1, got 2.0"),
            (SyncJob(uniqueKey: "") { _ in }, "uniqueKey must not be empty"),
            (SyncJob(serialGroup: "") { _ in }, "serialGroup must not be empty"),
            (SyncJob(tags: ["ok", ""]) { _ in }, "tags must not contain an empty tag"),
        ]
    )
    func badInput(job: SyncJob, message: String) async throws {
        try scheduler.submit(SyncJob(id: "queued") { _ in })
        let refused = refusal(of: #expect(throws: SyncSchedulerError.self) { try scheduler.submit(job) })
        #expect(refused?.reason == message)
        #expect(refused?.jobID == job.id)
        #expect(refused.map { message.hasPrefix($0.field) || message.hasPrefix("retry delay") } == true)
        let snapshot = scheduler.snapshot()
        #expect(snapshot.jobs.map(\.id) == ["queued"])
    }

    @Test("a duplicate id of an unfinished job is rejected")
    func duplicateID() async throws {
        try scheduler.submit(SyncJob(id: "same") { _ in })
        let refused = refusal(
            of: #expect(throws: SyncSchedulerError.self) { try scheduler.submit(SyncJob(id: "same") { _ in }) })
        #expect(
            refused
                == SyncJobRefusal(
                    jobID: "same", field: "id", value: "\"same\"", relatedJobs: ["same"],
                    reason: "id \"same\" is already used by an unfinished job"))
        #expect(
            refused.map { SyncSchedulerError.invalidJob($0).description }
                == "invalid job: id \"same\" is already used by an unfinished job")
    }

    @Test("an id spelled like a default one collides with the default id it equals, either way round")
    func defaultIDCollisions() async throws {
        // Default ids are indexed by their counter, other ids by their string: an app's id that equals a
        // default one must still be found (the network is down here, so every job stays waiting).
        manual.connectivity.send(.disconnected)
        let generated = try scheduler.submit(SyncJob { _ in })
        #expect(throws: SyncSchedulerError.invalidJob(idTaken(generated.id))) {
            try scheduler.submit(SyncJob(id: generated.id) { _ in })
        }
        let counter = try #require(JobIDGenerator.process.serial(of: SyncJob.makeID()))
        let ahead = JobIDGenerator.process.prefix + "#" + String(counter + 100_000, radix: 36)
        try scheduler.submit(SyncJob(id: ahead) { _ in })
        #expect(throws: SyncSchedulerError.invalidJob(idTaken(ahead))) {
            try scheduler.submit(SyncJob(id: ahead) { _ in })
        }
        // Near misses are other ids: a leading zero, an upper-case digit, another prefix.
        let digits = String(generated.id.split(separator: "#")[1])
        for other in [
            JobIDGenerator.process.prefix + "#0" + digits, JobIDGenerator.process.prefix + "#" + digits.uppercased(),
            "x" + generated.id,
        ] where other != generated.id {
            try scheduler.submit(SyncJob(id: other) { _ in })
        }
        scheduler.cancel(jobID: generated.id)
        #expect(try await generated.outcome() == .cancelled)
        try scheduler.submit(SyncJob(id: generated.id) { _ in })
    }

    @Test("an invalid configuration is rejected with the field and value")
    func invalidConfiguration() {
        #expect(throws: SyncSchedulerError.invalidConfiguration("maxConcurrentJobs must be at least 1, got 0")) {
            _ = try SyncScheduler(environment: manual.environment, configuration: .init(maxConcurrentJobs: 0))
        }
    }

    @Test("with 100 000 jobs blocked, a change that unblocks one other job examines O(1) jobs")
    func dispatchCost() async throws {
        for index in 0..<100_000 {
            try scheduler.submit(SyncJob(id: "blocked-\(index)", requires: .externalPower) { _ in })
        }
        manual.setPower(PowerStatus(isOnExternalPower: false))
        let operation = ControlledOperation()
        let target = try scheduler.submit(
            SyncJob(id: "target", requires: .network, operation: operation.operation))
        let before = scheduler.jobsExamined
        manual.setConnectivity(.connected(via: .wifi))
        await operation.waitForStarts(1)
        #expect(scheduler.jobsExamined - before <= 3)
        operation.finish()
        #expect(try await target.outcome().state == .succeeded)
        scheduler.cancelAll()
    }
}
