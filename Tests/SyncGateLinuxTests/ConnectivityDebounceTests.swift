import Testing

@testable import SyncGateCore

@testable import SyncGateLinux

struct ConnectivityDebounceTests {
    @Test func zeroWindowEvaluatesEveryBatch() {
        var machine = ConnectivityDebounce(isImmediate: true)
        #expect(machine.hintsReceived() == .evaluate)
        #expect(machine.hintsReceived() == .evaluate)
        #expect(!machine.isTimerArmed)
    }

    @Test func quietBurstIsEvaluatedWhenTheTimerFires() {
        var machine = ConnectivityDebounce(isImmediate: false)
        #expect(machine.hintsReceived() == .armTimer(generation: 1))
        #expect(machine.isTimerArmed)
        #expect(machine.timerFired(generation: 1) == .evaluate)
        #expect(!machine.isTimerArmed)
        #expect(machine.hintsReceived() == .armTimer(generation: 2))
    }

    @Test func hintsDuringTheWindowExtendItOnce() {
        var machine = ConnectivityDebounce(isImmediate: false)
        #expect(machine.hintsReceived() == .armTimer(generation: 1))
        #expect(machine.hintsReceived() == .none)
        #expect(machine.hintsReceived() == .none)
        #expect(machine.timerFired(generation: 1) == .armTimer(generation: 2))
        #expect(machine.timerFired(generation: 2) == .evaluate)
    }

    @Test func endlessStormIsStillAnswered() {
        var machine = ConnectivityDebounce(isImmediate: false, maximumExtensions: 3)
        var generation: UInt64 = 0
        if case .armTimer(let armed) = machine.hintsReceived() { generation = armed }
        var evaluations = 0
        for _ in 0..<20 {
            _ = machine.hintsReceived()
            switch machine.timerFired(generation: generation) {
            case .armTimer(let armed): generation = armed
            case .evaluate:
                evaluations += 1
                if case .armTimer(let armed) = machine.hintsReceived() { generation = armed }
            case .none: Issue.record("the armed timer was ignored")
            }
        }
        #expect(evaluations == 5)
    }

    @Test func staleTimersAreIgnored() {
        var machine = ConnectivityDebounce(isImmediate: false)
        #expect(machine.timerFired(generation: 1) == .none)
        _ = machine.hintsReceived()
        #expect(machine.timerFired(generation: 7) == .none)
        #expect(machine.isTimerArmed)
    }
}
