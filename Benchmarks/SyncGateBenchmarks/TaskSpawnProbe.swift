/// Baseline of scenario 3: `Task {}` created, to the first instruction of its body.
final class TaskSpawnProbe: LatencyProbe {
    private let scenario: String

    init(scenario: String) {
        self.scenario = scenario
    }

    func measure() async throws -> LatencySample {
        let stamp = Stamp()
        settle()
        let trigger = Stamp.currentThread()
        let start = ContinuousClock.now
        let task = Task { stamp.mark() }
        await task.value
        return try stamp.sample(from: start, trigger: trigger, scenario: scenario)
    }
}
