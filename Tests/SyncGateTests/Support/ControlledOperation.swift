import SyncGate

/// A job operation a test drives by hand: it counts its starts and returns or throws when told.
///
/// `ignoresCancellation` makes an attempt keep waiting for the test's word after its task is cancelled,
/// like an operation that finishes a write before it looks at cancellation.
final class ControlledOperation: Sendable {
    private struct State {
        var pending: CheckedContinuation<Result<Void, any Error>, Never>?
        var queued: [Result<Void, any Error>] = []
    }

    /// How many attempts have started.
    let starts = StatusBroadcast(0)
    /// How many attempts have seen their task cancelled.
    let cancellations = StatusBroadcast(0)
    private let state = LockedState(State())
    private let ignoresCancellation: Bool

    init(ignoresCancellation: Bool = false) {
        self.ignoresCancellation = ignoresCancellation
    }

    /// The operation to put in a job.
    var operation: SyncJob.Operation {
        { [self] _ in try await run() }
    }

    /// Ends the running attempt (or the next one, if none is running) with `result`.
    func finish(_ result: Result<Void, any Error> = .success(())) {
        let continuation = state.withLock { state in
            guard let pending = state.pending else {
                state.queued.append(result)
                return nil as CheckedContinuation<Result<Void, any Error>, Never>?
            }
            state.pending = nil
            return pending
        }
        continuation?.resume(returning: result)
    }

    /// Waits until `count` attempts have started.
    func waitForStarts(_ count: Int) async {
        for await started in starts.stream() where started >= count { return }
    }

    /// Waits until `count` attempts have seen their task cancelled.
    func waitForCancellations(_ count: Int) async {
        for await cancelled in cancellations.stream() where cancelled >= count { return }
    }

    private func run() async throws {
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Void, any Error>, Never>) in
                let queued: Result<Void, any Error>? = state.withLock { state in
                    if !state.queued.isEmpty { return state.queued.removeFirst() }
                    state.pending = continuation
                    return nil
                }
                starts.update { $0 += 1 }
                if let queued { continuation.resume(returning: queued) }
            }
        } onCancel: {
            cancellations.update { $0 += 1 }
            if !ignoresCancellation { finish(.failure(CancellationError())) }
        }
        try result.get()
    }
}
