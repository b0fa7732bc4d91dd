/// Runs a command's work until it finishes or a signal arrives, whichever comes first.
enum SignalRace {
    /// Runs `work` beside a reader of `signals` and returns the first exit status either produces.
    ///
    /// `work` returns its exit status, or `nil` when it ended without one (it was cancelled); a signal N
    /// gives 128 + N (``ExitCode/signaled(_:)``). The loser is cancelled. When both end without a status
    /// (the signal stream finished and the work was cancelled), the result is ``ExitCode/failure``.
    static func run(
        signals: AsyncStream<Int32>,
        _ work: @escaping @Sendable () async -> Int32?
    ) async -> Int32 {
        await first(
            work,
            {
                for await signal in signals {
                    return ExitCode.signaled(signal)
                }
                return nil
            },
            otherwise: ExitCode.failure
        )
    }

    /// Runs `one` and `other` side by side and returns the first non-`nil` result; the other is cancelled.
    ///
    /// - Returns: that result, or `fallback` when both end with `nil`.
    static func first<Result: Sendable>(
        _ one: @escaping @Sendable () async -> Result?,
        _ other: @escaping @Sendable () async -> Result?,
        otherwise fallback: Result
    ) async -> Result {
        await withTaskGroup(of: Result?.self) { group in
            group.addTask { await one() }
            group.addTask { await other() }
            var result = fallback
            while let next = await group.next() {
                if let next {
                    result = next
                    break
                }
            }
            group.cancelAll()
            return result
        }
    }
}
