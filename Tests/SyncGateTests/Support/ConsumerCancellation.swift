import Foundation
import SyncGate
import Synchronization

/// Consumers cancelled while values are delivered to them: the shape of the tests that a stream's
/// `onTermination`, run inside the runtime's lock of a cancelled task, never deadlocks with a sender.
enum ConsumerCancellation {
    /// Sends 1, 2, 3, … without pause from a thread of its own (as an observer's reader thread sends)
    /// while, `rounds` times, four consumers of `stream()` start and are cancelled together; returns once
    /// the sender has stopped.
    ///
    /// Each consumer's cancellation handler calls `onCancel`, inside the runtime's lock of its task (the
    /// lock a yield to its stream takes): a sender that yielded while holding a lock that `onCancel`
    /// takes would deadlock here.
    ///
    /// A thread, not a task: a sender that never suspends would hold one of the cooperative pool's few
    /// threads (two on a two-core machine) and starve the consumers it is meant to race.
    static func cancelWhileSending<Element>(
        rounds: Int = 200,
        send: @escaping @Sendable (Int) -> Void,
        stream: @escaping @Sendable () -> AsyncStream<Element>,
        onCancel: @escaping @Sendable () -> Void
    ) async {
        let stop = Atomic(false)
        async let sender: Void = onThread {
            var number = 0
            while !stop.load(ordering: .relaxed) {
                number += 1
                send(number)
            }
        }
        for _ in 0..<rounds {
            await cancelOnceStarted(
                Array(repeating: { await consume(stream(), onCancel: onCancel) }, count: 4))
        }
        stop.store(true, ordering: .relaxed)
        await sender
    }

    /// Reads `stream` to its end, calling `onCancel` when the reading task is cancelled.
    static func consume<Element>(_ stream: AsyncStream<Element>, onCancel: @escaping @Sendable () -> Void) async {
        await withTaskCancellationHandler {
            for await _ in stream {}
        } onCancel: {
            onCancel()
        }
    }

    /// Runs `body` on a new thread and returns when it has.
    static func onThread(_ body: @escaping @Sendable () -> Void) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                body()
                continuation.resume()
            }
        }
    }

    /// Runs the `consumers` side by side, waits until each has started, and cancels them all.
    static func cancelOnceStarted(_ consumers: [@Sendable () async -> Void]) async {
        let started = StatusBroadcast(0)
        await withTaskGroup(of: Void.self) { group in
            for consume in consumers {
                group.addTask {
                    started.update { $0 += 1 }
                    await consume()
                }
            }
            for await count in started.stream() where count == consumers.count { break }
            group.cancelAll()
        }
    }

    /// Runs `senders` threads, each calling `send(sender, number)` for the numbers `0..<each`,
    /// beside one `consume` per stream, and returns what each consumer answered (whether what it saw was
    /// complete and in order).
    static func sendFromThreads<Element: Sendable>(
        to streams: [AsyncStream<Element>],
        senders: Int,
        each: Int,
        send: @escaping @Sendable (_ sender: Int, _ number: Int) -> Void,
        consume: @escaping @Sendable (AsyncStream<Element>) async -> Bool
    ) async -> [Bool] {
        await withTaskGroup(of: Bool?.self) { group in
            for stream in streams {
                group.addTask { await consume(stream) }
            }
            for sender in 0..<senders {
                group.addTask {
                    await onThread { for number in 0..<each { send(sender, number) } }
                    return nil
                }
            }
            var answers: [Bool] = []
            for await answer in group {
                if let answer { answers.append(answer) }
            }
            return answers
        }
    }
}
