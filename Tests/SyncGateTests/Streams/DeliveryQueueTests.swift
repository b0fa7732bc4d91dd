import SyncGate
import SyncGateTesting
import Testing

/// Streams are yielded to after the locks that order their values, by one thread at a time: the queue
/// itself, the order seen under contention, and consumers cancelled while values are delivered to them.
@Suite("Stream delivery", .timeLimit(.minutes(3)))
struct DeliveryQueueTests {
    struct Failure: Error {}

    /// One step on a queue, and what it must answer.
    enum Step: Sendable, CustomTestStringConvertible {
        case enqueue(Int, returns: Int?)
        case takeAll(returns: [Int])

        var testDescription: String {
            switch self {
            case .enqueue(let value, let returns): "enqueue \(value) → \(returns.map(String.init) ?? "nil")"
            case .takeAll(let returns): "takeAll → \(returns)"
            }
        }
    }

    @Test(
        "the first sender delivers; later ones queue until the drain takes them; an empty take ends the drain",
        arguments: [
            [.enqueue(1, returns: 1), .takeAll(returns: []), .enqueue(2, returns: 2)],
            [
                .enqueue(1, returns: 1), .enqueue(2, returns: nil), .enqueue(3, returns: nil),
                .takeAll(returns: [2, 3]), .enqueue(4, returns: nil), .takeAll(returns: [4]),
                .takeAll(returns: []), .enqueue(5, returns: 5),
            ],
            [.takeAll(returns: []), .enqueue(1, returns: 1), .enqueue(2, returns: nil), .takeAll(returns: [2])],
        ] as [[Step]])
    func queueSteps(steps: [Step]) {
        var queue = DeliveryQueue<Int>()
        for step in steps {
            switch step {
            case .enqueue(let value, let returns):
                #expect(queue.enqueue(value) == returns, "\(step.testDescription)")
            case .takeAll(let returns):
                #expect(queue.takeAll() == returns, "\(step.testDescription)")
            }
        }
    }

    @Test("changes sent from several threads at once reach every stream in the order they were made")
    func statusOrderUnderContention() async {
        let broadcast = StatusBroadcast(0)
        let total = 4 * 5_000
        let answers = await ConsumerCancellation.sendFromThreads(
            to: (0..<3).map { _ in broadcast.stream() }, senders: 4, each: 5_000,
            send: { _, _ in broadcast.update { $0 += 1 } },
            consume: { stream in
                var last = -1
                for await value in stream {
                    guard value > last else { return false }
                    last = value
                    if value == total { return true }
                }
                return false
            })
        #expect(answers == [true, true, true])
    }

    @Test("events sent from several threads at once all reach every stream, each sender's in its order")
    func eventOrderUnderContention() async {
        let broadcast = EventBroadcast<(sender: Int, number: Int)>()
        let answers = await ConsumerCancellation.sendFromThreads(
            to: (0..<3).map { _ in broadcast.stream() }, senders: 4, each: 5_000,
            send: { sender, number in broadcast.send((sender, number)) },
            consume: { stream in
                var next = Array(repeating: 0, count: 4)
                var received = 0
                for await event in stream {
                    guard event.number == next[event.sender] else { return false }
                    next[event.sender] += 1
                    received += 1
                    if received == 4 * 5_000 { return true }
                }
                return false
            })
        #expect(answers == [true, true, true])
    }

    @Test("events still queued when the broadcast finishes reach the streams before their end")
    func finishComesAfterQueuedEvents() async {
        let broadcast = EventBroadcast<Int>()
        let stream = broadcast.stream()
        await ConsumerCancellation.onThread {
            for number in 0..<1_000 { broadcast.send(number) }
            broadcast.finish()
        }
        var received: [Int] = []
        for await number in stream { received.append(number) }
        #expect(received == Array(0..<1_000))
    }

    @Test(
        "cancelling event consumers that use the broadcast when cancelled, while events are sent to them, neither deadlocks nor leaves a subscriber"
    )
    func cancelEventConsumersWhileSending() async {
        let broadcast = EventBroadcast<Int>()
        await ConsumerCancellation.cancelWhileSending(
            send: { broadcast.send($0) }, stream: { broadcast.stream() }, onCancel: { _ = broadcast.subscriberCount })
        #expect(broadcast.subscriberCount == 0)
        #expect(!broadcast.hasSubscribers)
    }

    /// A consumer of a job's states or progress whose cancellation handler reads the job's progress and
    /// cancels the job (a natural way to tie a job to a screen) takes the handle's and the scheduler's
    /// locks inside the runtime's lock of its task; those streams are yielded after both, so this cannot
    /// deadlock.
    @Test("consumers of a job's states and progress that cancel the job when cancelled never deadlock")
    func cancellingConsumersCancelTheirJobs() async throws {
        let manual = ManualSyncEnvironment()
        manual.setConnectivity(.connected(via: .wifi))
        let scheduler = try SyncScheduler(
            environment: manual.environment, configuration: .init(maxConcurrentJobs: 8))
        for round in 0..<100 {
            // Each attempt reports progress and fails; the retry comes at once, so the states and progress
            // change without pause while their consumers are cancelled.
            let handles = try (0..<4).map { index in
                try scheduler.submit(
                    SyncJob(
                        id: "job-\(round)-\(index)",
                        retry: RetryPolicy(backoff: .fixed(.zero), maxAttempts: .max)
                    ) { context in
                        context.reportProgress(Double(context.attempt % 100) / 100)
                        await Task.yield()
                        throw Failure()
                    })
            }
            // Cancelled, a consumer reads its job's progress (the handle's lock) and cancels the job (the
            // scheduler's lock).
            await ConsumerCancellation.cancelOnceStarted(
                handles.flatMap { handle -> [@Sendable () async -> Void] in
                    let onCancel: @Sendable () -> Void = {
                        _ = handle.progress
                        handle.cancel()
                    }
                    return [
                        { await ConsumerCancellation.consume(handle.progressUpdates, onCancel: onCancel) },
                        { await ConsumerCancellation.consume(handle.states, onCancel: onCancel) },
                    ]
                })
            for handle in handles { #expect(try await handle.outcome() == .cancelled) }
        }
        await scheduler.shutdown(gracePeriod: .zero)
    }
}
