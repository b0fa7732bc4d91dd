import SyncGate
import Testing

@Suite("StatusBroadcast", .timeLimit(.minutes(3)))
struct StatusBroadcastTests {
    @Test("a new stream starts with the current value")
    func currentValueFirst() async {
        let broadcast = StatusBroadcast(1)
        broadcast.send(2)
        var iterator = broadcast.stream().makeAsyncIterator()
        #expect(await iterator.next() == 2)
        broadcast.send(3)
        #expect(await iterator.next() == 3)
    }

    @Test("consecutive equal values are dropped")
    func dedupe() async {
        let broadcast = StatusBroadcast(0)
        var iterator = broadcast.stream().makeAsyncIterator()
        #expect(await iterator.next() == 0)
        #expect(broadcast.send(1))
        #expect(await iterator.next() == 1)
        #expect(!broadcast.send(1))
        #expect(broadcast.send(2))
        #expect(await iterator.next() == 2)
    }

    @Test("a slow subscriber sees the newest value, not a backlog")
    func newestOnly() async {
        let broadcast = StatusBroadcast(0)
        var iterator = broadcast.stream().makeAsyncIterator()
        for value in 1...100 { broadcast.send(value) }
        #expect(await iterator.next() == 100)
    }

    @Test("every subscriber gets every change it has not been overtaken on")
    func manySubscribers() async {
        let broadcast = StatusBroadcast(0)
        var iterators = (0..<50).map { _ in broadcast.stream().makeAsyncIterator() }
        #expect(broadcast.subscriberCount == 50)
        for index in iterators.indices { #expect(await iterators[index].next() == 0) }
        broadcast.send(7)
        for index in iterators.indices { #expect(await iterators[index].next() == 7) }
    }

    @Test("subscribers cancelled mid-way are removed and the count returns to zero")
    func cancelledSubscribersAreRemoved() async {
        let broadcast = StatusBroadcast(0)
        let started = StatusBroadcast(0)
        var tasks: [Task<Int, Never>] = []
        for _ in 0..<20 {
            let stream = broadcast.stream()
            tasks.append(
                Task {
                    var last = -1
                    for await value in stream {
                        last = value
                        if value == 0 { started.update { $0 += 1 } }
                    }
                    return last
                }
            )
        }
        for await count in started.stream() where count == 20 { break }
        #expect(broadcast.subscriberCount == 20)
        for task in tasks.prefix(10) { task.cancel() }
        for task in tasks.prefix(10) { _ = await task.value }
        #expect(broadcast.subscriberCount == 10)
        broadcast.finish()
        for task in tasks.suffix(10) { #expect(await task.value == 0) }
        #expect(broadcast.subscriberCount == 0)
    }

    @Test(
        "cancelling consumers that read the broadcast when cancelled, while values are sent to them, neither deadlocks nor leaves a subscriber"
    )
    func cancelWhileSending() async {
        // A cancelled consumer's stream ends, and its cancellation handler runs, inside the runtime's lock
        // of its task, while a sender yields to that stream (which takes the same runtime lock); the
        // sender must not hold the broadcast's lock then.
        let broadcast = StatusBroadcast(0)
        await ConsumerCancellation.cancelWhileSending(
            send: { broadcast.send($0) }, stream: { broadcast.stream() }, onCancel: { _ = broadcast.value })
        await broadcast.waitForSubscriberCount(0)
        #expect(broadcast.subscriberCount == 0)
    }

    @Test("a consumer that stops iterating is removed")
    func abandonedStreamIsRemoved() async {
        let broadcast = StatusBroadcast(0)
        await Task {
            for await value in broadcast.stream() where value == 0 { break }
        }.value
        #expect(broadcast.subscriberCount == 0)
    }

    @Test("subscribing while values are sent from other tasks never goes back in time")
    func concurrentSubscribeAndSend() async {
        let broadcast = StatusBroadcast(0)
        let last = 2_000
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for value in 1...last { broadcast.send(value) }
                return true
            }
            for _ in 0..<16 {
                group.addTask {
                    var previous = -1
                    for await value in broadcast.stream() {
                        if value <= previous { return false }
                        previous = value
                        if value == last { break }
                    }
                    return previous == last
                }
            }
            for await ok in group { #expect(ok) }
        }
        #expect(broadcast.subscriberCount == 0)
    }

    @Test("finish ends every stream, and later streams yield the last value and end")
    func finish() async {
        let broadcast = StatusBroadcast("a")
        let stream = broadcast.stream()
        broadcast.send("b")
        broadcast.finish()
        var received: [String] = []
        for await value in stream { received.append(value) }
        #expect(received == ["b"])
        #expect(!broadcast.send("c"))
        var late: [String] = []
        for await value in broadcast.stream() { late.append(value) }
        #expect(late == ["b"])
        #expect(broadcast.isFinished)
        #expect(broadcast.subscriberCount == 0)
    }

    @Test("update changes the value atomically under concurrent writers")
    func atomicUpdate() async {
        let broadcast = StatusBroadcast(0)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<1_000 { broadcast.update { $0 += 1 } }
                }
            }
        }
        #expect(broadcast.value == 8_000)
    }

    @Test("a projected stream shows its part first, then only the changes of that part, and ends on finish")
    func projectedStream() async {
        let broadcast = StatusBroadcast([0, 0])
        var parts = broadcast.stream(retaining: nil) { $0[0] }.makeAsyncIterator()
        #expect(await parts.next() == 0)
        broadcast.send([0, 1])  // the other part changes: nothing to show
        broadcast.send([1, 1])
        #expect(await parts.next() == 1)
        broadcast.send([1, 2])
        broadcast.finish()
        #expect(await parts.next() == nil)
        #expect(broadcast.subscriberCount == 0)
    }
}
