/// Baseline of scenario 1: a continuation resumed by another task, to the resumed task's first instruction.
final class ContinuationResumeProbe: LatencyProbe {
    private let scenario: String

    init(scenario: String) {
        self.scenario = scenario
    }

    func measure() async throws -> Duration {
        let mailbox = Mailbox<CheckedContinuation<Void, Never>>()
        let stamp = Stamp()
        let task = Task {
            await withCheckedContinuation { continuation in mailbox.put(continuation) }
            stamp.mark()
        }
        let continuation = await mailbox.take()
        settle()
        let start = ContinuousClock.now
        continuation.resume()
        await task.value
        return try stamp.latency(from: start, scenario: scenario)
    }
}
