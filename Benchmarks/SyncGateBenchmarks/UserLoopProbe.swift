import SyncGate

/// The code an app writes without SyncGate, for scenarios 1 and 9: its own observer yields each change
/// to an `AsyncStream` (the seed libraries' pattern), and a task loops `for await status in stream`,
/// running the pending job inline when the status allows it.
///
/// Timed as the SyncGate probes are: from just before the observer yields "connected" (from the
/// measuring task or from a dedicated thread) to the first instruction of the job's body. The loop then
/// sees "disconnected" and acknowledges it before the next sample, so no change is left buffered.
final class UserLoopProbe: LatencyProbe {
    private let scenario: String
    private let driver: ThreadDriver?
    private let continuation: AsyncStream<Bool>.Continuation
    private let pending = LockedState<(@Sendable () -> Void)?>(nil)
    private let loop: Task<Void, Never>
    /// Receives a value each time the loop has handled a "disconnected".
    private let closed = LockedState<Mailbox<Void>?>(nil)

    /// Starts the app's loop; with `fromThread`, changes are yielded from a dedicated thread.
    init(scenario: String, fromThread: Bool) {
        self.scenario = scenario
        driver = fromThread ? ThreadDriver() : nil
        let (stream, continuation) = AsyncStream<Bool>.makeStream()
        self.continuation = continuation
        loop = Task { [pending, closed] in
            for await connected in stream {
                if connected {
                    let job = pending.withLock { job in
                        defer { job = nil }
                        return job
                    }
                    job?()
                } else {
                    closed.withLock { $0 }?.put(())
                }
            }
        }
    }

    deinit {
        continuation.finish()
        driver?.stop()
    }

    func measure() async throws -> LatencySample {
        let stamp = Stamp()
        let ended = Mailbox<Void>()
        pending.withLock { job in
            job = {
                stamp.mark()
                ended.put(())
            }
        }
        settle()
        let continuation = continuation
        let start: ContinuousClock.Instant
        let thread: UInt
        if let driver {
            (start, thread, _) = try await driver.timed(
                { continuation.yield(true) }, scenario: scenario, until: { await ended.take() })
        } else {
            thread = Stamp.currentThread()
            start = ContinuousClock.now
            continuation.yield(true)
            await ended.take()
        }
        let sample = try stamp.sample(from: start, trigger: thread, scenario: scenario)
        let handled = Mailbox<Void>()
        closed.withLock { $0 = handled }
        continuation.yield(false)
        await handled.take()
        return sample
    }
}
