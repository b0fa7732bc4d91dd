/// Baseline of scenario 1: a continuation resumed by another task, to the resumed task's first instruction.
final class ContinuationResumeProbe: LatencyProbe {
    private let scenario: String
    private let driver: ThreadDriver?

    /// With `fromThread`, the continuation is resumed from a dedicated thread outside the Swift thread
    /// pool instead of from the measuring task.
    init(scenario: String, fromThread: Bool = false) {
        self.scenario = scenario
        driver = fromThread ? ThreadDriver() : nil
    }

    deinit {
        driver?.stop()
    }

    func measure() async throws -> LatencySample {
        let mailbox = Mailbox<CheckedContinuation<Void, Never>>()
        let stamp = Stamp()
        let task = Task {
            await withCheckedContinuation { continuation in mailbox.put(continuation) }
            stamp.mark()
        }
        let continuation = await mailbox.take()
        settle()
        if let driver {
            let (start, thread, _) = try await driver.timed(
                { continuation.resume() }, scenario: scenario, until: { await task.value })
            return try stamp.sample(from: start, trigger: thread, scenario: scenario)
        }
        let trigger = Stamp.currentThread()
        let start = ContinuousClock.now
        continuation.resume()
        await task.value
        return try stamp.sample(from: start, trigger: trigger, scenario: scenario)
    }
}
