import Testing

@testable import SyncGateCore

@testable import SyncGateLinux

@Suite(.timeLimit(.minutes(1)))
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
            case .none, .evaluateForGain: Issue.record("the armed timer fired as \(machine)")
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

    @Test func whileAGainIsPossibleEachBatchIsEvaluatedAtOnceUpToTheBudget() {
        var machine = ConnectivityDebounce(isImmediate: false, eagerEvaluationsPerWindow: 3)
        #expect(machine.hintsReceived(mayGain: true) == .evaluateForGain(armTimer: 1))
        #expect(machine.hintsReceived(mayGain: true) == .evaluateForGain(armTimer: nil))
        #expect(machine.hintsReceived(mayGain: true) == .evaluateForGain(armTimer: nil))
        // The budget is spent: the next batch waits for the timer, and extends the window.
        #expect(machine.hintsReceived(mayGain: true) == .none)
        #expect(machine.timerFired(generation: 1) == .armTimer(generation: 2))
        // A new window has a new budget.
        #expect(machine.hintsReceived(mayGain: true) == .evaluateForGain(armTimer: nil))
        #expect(machine.timerFired(generation: 2) == .evaluate)
    }

    @Test func batchesEvaluatedAtOnceDoNotExtendTheWindow() {
        var machine = ConnectivityDebounce(isImmediate: false)
        #expect(machine.hintsReceived(mayGain: true) == .evaluateForGain(armTimer: 1))
        #expect(machine.hintsReceived(mayGain: true) == .evaluateForGain(armTimer: nil))
        #expect(machine.timerFired(generation: 1) == .evaluate)
        #expect(!machine.isTimerArmed)
    }

    @Test func withNothingToGainHintsOnlyArmTheTimer() {
        var machine = ConnectivityDebounce(isImmediate: false)
        #expect(machine.hintsReceived(mayGain: false) == .armTimer(generation: 1))
        #expect(machine.hintsReceived(mayGain: false) == .none)
        #expect(machine.timerFired(generation: 1) == .armTimer(generation: 2))
    }

    @Test func aZeroWindowEvaluatesEveryBatchWhateverItMayGain() {
        var machine = ConnectivityDebounce(isImmediate: true)
        #expect(machine.hintsReceived(mayGain: true) == .evaluate)
        #expect(machine.hintsReceived(mayGain: false) == .evaluate)
    }

    static let wired = ConnectivityStatus.connected(via: .wiredEthernet)
    static let hotspot = ConnectivityStatus.connected(via: .wifi, isExpensive: true)
    static let lowData = ConnectivityStatus.connected(via: .wifi, isConstrained: true)
    static let wifi = ConnectivityStatus.connected(via: .wifi)
    static let roaming = ConnectivityStatus.connected(via: .cellular, isRoaming: true)

    /// (published, candidate, whether the candidate is published at once).
    static let gains: [(ConnectivityStatus, ConnectivityStatus, Bool)] = [
        (.disconnected, wired, true),
        (.disconnected, hotspot, true),
        (hotspot, wired, true),
        (lowData, wifi, true),
        (roaming, wifi, true),
        (wired, .disconnected, false),  // a loss waits for the window
        (wired, wifi, false),  // a change that gains nothing waits too
        (wired, wired, false),
        (hotspot, lowData, false),  // gains unmetered, loses unconstrained
        (.disconnected, .disconnected, false),
    ]

    @Test(arguments: gains)
    func aCandidateIsPublishedEarlyOnlyWhenItGainsAndLosesNothing(
        published: ConnectivityStatus, candidate: ConnectivityStatus, isGain: Bool
    ) {
        #expect(ConnectivityDebounce.isGain(candidate, over: published) == isGain)
    }

    @Test(arguments: [
        (ConnectivityStatus.disconnected, true), (hotspot, true), (lowData, true), (roaming, true), (wired, false),
        (wifi, false),
    ])
    func aGainIsLookedForOnlyWhileARequirementIsMissing(published: ConnectivityStatus, mayGain: Bool) {
        #expect(ConnectivityDebounce.mayGain(over: published) == mayGain)
    }
}
