import SyncGateTesting
import Testing

@testable import SyncGateCore

/// An event that no hook and no event stream would receive is counted but not built. Nothing a listener
/// can see changes: a stream made later gets every event of the jobs after it, in order; a hook added
/// later sees sequence numbers that count the events before it; and the broadcast's count of streams,
/// which the scheduler reads without a lock, follows streams as they come and go.
@Suite("Scheduler events nobody hears", .timeLimit(.minutes(1)))
struct SchedulerUnheardEventsTests {
    let manual = ManualSyncEnvironment(connectivity: .connected(via: .wifi), account: .available)

    func makeScheduler() throws -> SyncScheduler {
        try SyncScheduler(environment: manual.environment, configuration: .init(maxConcurrentJobs: 1))
    }

    @Test("a stream made after events nobody heard gets every event of the later jobs, in order")
    func streamAfterUnheardEvents() async throws {
        let scheduler = try makeScheduler()
        let early = try scheduler.submit(SyncJob(id: "early") { _ in })
        #expect(try await early.outcome().state == .succeeded)
        let events = scheduler.events
        let late = try scheduler.submit(SyncJob(id: "late") { _ in })
        #expect(try await late.outcome().state == .succeeded)
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == .submitted(id: "late"))
        #expect(await iterator.next() == .started(id: "late", attempt: 1))
        #expect(await iterator.next() == .succeeded(id: "late"))
    }

    @Test("a hook added after events nobody heard sees sequence numbers that count them")
    func hookSequenceCountsUnheardEvents() async throws {
        let scheduler = try makeScheduler()
        let core = scheduler.schedulerCore
        // Submitted, started, succeeded: three events, built for nobody.
        #expect(try await scheduler.submit(SyncJob(id: "early") { _ in }).outcome().state == .succeeded)
        let seen = LockedState<[UInt64]>([])
        let token = core.addEventHook { delivery in seen.withLock { $0.append(delivery.sequence) } }
        #expect(try await scheduler.submit(SyncJob(id: "heard") { _ in }).outcome().state == .succeeded)
        core.removeEventHook(token)
        #expect(try await scheduler.submit(SyncJob(id: "after") { _ in }).outcome().state == .succeeded)
        #expect(seen.withLock { $0 } == [4, 5, 6])
    }

    @Test("the broadcast counts a stream while it is consumed, and none after its consumer goes or it finishes")
    func broadcastCountsStreams() async {
        let broadcast = EventBroadcast<Int>()
        #expect(!broadcast.hasSubscribers)
        let consumer = Task { [stream = broadcast.stream()] in
            for await _ in stream {}
        }
        #expect(broadcast.hasSubscribers)
        consumer.cancel()
        await consumer.value
        #expect(!broadcast.hasSubscribers)

        let kept = broadcast.stream()
        #expect(broadcast.hasSubscribers)
        broadcast.finish()
        #expect(!broadcast.hasSubscribers)
        for await _ in kept {}
    }
}
