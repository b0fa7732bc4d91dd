import SyncGate
import SyncGateTesting
import Testing

/// Every stop reason reaching the job's body (in its cancellation handler and after), its handle, the
/// snapshot, queries, the history and the events, on a ManualClock and a ManualSyncEnvironment.
@Suite("Stop reasons", .timeLimit(.minutes(1)))
struct StopReasonTests {
    let clock: ManualClock
    let manual: ManualSyncEnvironment
    let scheduler: SyncScheduler

    init() throws {
        (clock, manual, scheduler) = try ManualSchedulerSetup.make()
    }

    /// How a test stops the running attempt.
    enum Stop: String, CaseIterable, Sendable {
        case cancel, loseRequirements, loseCondition, timeOut, replace, shutDown
    }

    /// What each stop tells the body, and how the job goes on.
    static let table: [(Stop, SyncJobStopReason, SyncJobState?)] = [
        (.cancel, .cancelled, .cancelled),
        (.loseRequirements, .requirementsLost(.network, conditions: []), nil),
        (.loseCondition, .requirementsLost([], conditions: ["signed-in"]), nil),
        (.timeOut, .timedOut, .failed(SyncJobError.runTimedOut)),
        (.replace, .replaced, .cancelled),
        (.shutDown, .shutdown, .cancelled),
    ]

    @Test("each stop reason reaches the body, the handle, the event, the snapshot and the history", arguments: table)
    func reasonReachesEveryView(stop: Stop, expected: SyncJobStopReason, ends: SyncJobState?) async throws {
        try manual.environment.setCondition("signed-in", isMet: true)
        let events = scheduler.events
        let body = StopRecordingOperation()
        let handle = try scheduler.submit(
            SyncJob(
                id: "job", conditions: ["signed-in"], runTimeout: stop == .timeOut ? .seconds(5) : nil,
                uniqueKey: "k", operation: body.operation))
        await body.started.waitUntil { $0 >= 1 }
        #expect(handle.stopReason == nil)
        #expect(scheduler.snapshot().job("job")?.stopReason == nil)

        var shutdown: Task<Void, Never>?
        switch stop {
        case .cancel: handle.cancel()
        case .loseRequirements: manual.setConnectivity(.disconnected)
        case .loseCondition: try manual.environment.setCondition("signed-in", isMet: false)
        case .timeOut:
            await clock.waitForSleepers(1)
            clock.advance(by: .seconds(5))
        case .replace:
            _ = try scheduler.submit(SyncJob(id: "newer", uniqueKey: "k", onDuplicate: .replace) { _ in })
        case .shutDown:
            let scheduler = scheduler
            shutdown = Task { await scheduler.shutdown(gracePeriod: .seconds(10)) }
            await clock.waitForSleepers(1)
            clock.advance(by: .seconds(10))
        }

        await body.returned.waitUntil { $0 >= 1 }
        #expect(body.seen.withLock { $0 } == [expected, expected])
        var iterator = events.makeAsyncIterator()
        var stopEvents: [SyncSchedulerEvent] = []
        while let event = await iterator.next() {
            if case .stopRequested = event { stopEvents.append(event) }
            if case .requeued = event { break }
            if event.jobID == "job" && (event == .cancelled(id: "job") || event.isFailed) { break }
        }
        #expect(stopEvents == [.stopRequested(id: "job", attempt: 1, reason: expected)])

        if let ends {
            #expect(try await handle.outcome().state == ends)
            #expect(scheduler.job(id: "job")?.stopReason == expected)
        } else {
            // Requeued: it waits again, and every view says why its attempt was stopped.
            _ = await handle.states.first { if case .waiting = $0 { true } else { false } }
            #expect(scheduler.snapshot().job("job")?.stopReason == expected)
            #expect(scheduler.job(id: "job")?.stopReason == expected)
            handle.cancel()
            #expect(try await handle.outcome().state == .cancelled)
        }
        #expect(handle.stopReason == expected)
        await shutdown?.value
    }

    @Test("a new attempt starts with no stop reason; the requeued one's reason is gone from every view")
    func newAttemptClearsTheReason() async throws {
        let body = StopRecordingOperation()
        let handle = try scheduler.submit(SyncJob(id: "job", operation: body.operation))
        await body.started.waitUntil { $0 >= 1 }
        manual.setConnectivity(.disconnected)
        await body.returned.waitUntil { $0 >= 1 }
        manual.setConnectivity(.connected(via: .wifi))
        await body.started.waitUntil { $0 >= 2 }
        #expect(handle.stopReason == nil)
        #expect(body.contextReasonAtStart.withLock { $0 } == [nil, nil])
        #expect(scheduler.snapshot().job("job")?.stopReason == nil)
        #expect(scheduler.job(id: "job")?.stopReason == nil)
        handle.cancel()
        #expect(try await handle.outcome().state == .cancelled)
        #expect(scheduler.job(id: "job")?.stopReason == .cancelled)
    }

    @Test("a cancel after a timeout replaces its reason and ends the job as cancelled")
    func cancelOverridesTimeout() async throws {
        let events = scheduler.events
        let body = StopRecordingOperation(returnsOnCancel: false)
        let handle = try scheduler.submit(SyncJob(id: "job", runTimeout: .seconds(5), operation: body.operation))
        await body.started.waitUntil { $0 >= 1 }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(5))
        await body.cancelled.waitUntil { $0 >= 1 }
        #expect(handle.stopReason == .timedOut)
        #expect(handle.description == "job: running attempt 1 (stopping: timed-out)")
        #expect(scheduler.snapshot().job("job")?.summary.hasSuffix("(stopping: timed-out)") == true)
        handle.cancel()
        #expect(handle.stopReason == .cancelled)
        body.finish()
        #expect(try await handle.outcome().state == .cancelled)
        #expect(body.seen.withLock { $0 } == [.timedOut, .cancelled])
        #expect(handle.description == "job: cancelled (stopped: cancelled)")
        var stops: [SyncJobStopReason] = []
        for await event in events {
            if case .stopRequested(_, _, let reason) = event { stops.append(reason) }
            if event == .cancelled(id: "job") { break }
        }
        #expect(stops == [.timedOut, .cancelled])
        #expect(scheduler.job(id: "job")?.description == "job: cancelled after 1 attempt (stopped: cancelled)")
    }

    @Test(
        "a reason's name and description are stable",
        arguments: [
            (SyncJobStopReason.cancelled, "cancelled", "cancelled", true),
            (
                .requirementsLost([.network, .unmetered], conditions: []), "requirements-lost",
                "requirements-lost [network, unmetered]", false
            ),
            (
                .requirementsLost([], conditions: ["b", "a"]), "requirements-lost",
                "requirements-lost [] conditions [a, b]", false
            ),
            (.timedOut, "timed-out", "timed-out", false),
            (.replaced, "replaced", "replaced", true),
            (.shutdown, "shutdown", "shutdown", true),
        ])
    func names(reason: SyncJobStopReason, name: String, description: String, endsJob: Bool) {
        #expect(reason.name == name)
        #expect(reason.description == description)
        #expect(reason.endsJob == endsJob)
    }
}

/// A job body that waits until its task is cancelled, recording ``SyncJobContext/stopReason`` in its
/// cancellation handler and again after; with `returnsOnCancel: false` it returns only at ``finish()``.
private final class StopRecordingOperation: Sendable {
    let started = StatusBroadcast(0)
    let cancelled = StatusBroadcast(0)
    let returned = StatusBroadcast(0)
    /// The reasons read in the cancellation handler, then after the wait, in order.
    let seen = LockedState<[SyncJobStopReason?]>([])
    /// The reason each attempt's context showed when it started.
    let contextReasonAtStart = LockedState<[SyncJobStopReason?]>([])
    private let pending = LockedState<(continuation: CheckedContinuation<Void, Never>?, finished: Bool)>((nil, false))
    private let returnsOnCancel: Bool

    init(returnsOnCancel: Bool = true) {
        self.returnsOnCancel = returnsOnCancel
    }

    var operation: SyncJob.Operation {
        { [self] context in
            contextReasonAtStart.withLock { $0.append(context.stopReason) }
            await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    let finished = pending.withLock { state in
                        if state.finished { return true }
                        state.continuation = continuation
                        return false
                    }
                    started.update { $0 += 1 }
                    if finished { continuation.resume() }
                }
            } onCancel: {
                seen.withLock { $0.append(context.stopReason) }
                cancelled.update { $0 += 1 }
                if returnsOnCancel { finish() }
            }
            seen.withLock { $0.append(context.stopReason) }
            pending.withLock { $0 = (nil, false) }
            returned.update { $0 += 1 }
            throw CancellationError()
        }
    }

    /// Lets the waiting attempt return.
    func finish() {
        let continuation = pending.withLock { state in
            state.finished = true
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume()
    }
}

extension StatusBroadcast where Value == Int {
    /// Waits until the value satisfies `condition`.
    fileprivate func waitUntil(_ condition: (Int) -> Bool) async {
        for await value in stream() where condition(value) { return }
    }
}
