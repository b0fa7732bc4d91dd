import SyncGateCore

/// The coalescing rule of the connectivity backend: when a burst of netlink hints gets evaluated, and when
/// an evaluation may be published before the burst is over.
///
/// A pure state machine; the I/O loop feeds it and performs the actions it returns. With a zero window
/// every batch of hints read from the socket is evaluated and published at once. Otherwise:
///
/// * **Losses are coalesced.** The first hint arms one timer of `window`; when it fires, the burst is
///   evaluated and published unless more hints arrived meanwhile, in which case the timer is armed once
///   more — at most `maximumExtensions` times, so a burst is answered between `window` and `2 × window`
///   after its last hint, and a hint storm that never pauses is still answered every
///   `(maximumExtensions + 1) × window`. Only one timer is ever armed, whatever the event rate. A link that
///   flaps down and up within the window is never reported down.
/// * **Gains are reported at once.** While the published status lacks a network requirement that a
///   change could bring (`mayGain`), each batch of hints is also evaluated at once
///   (``Action/evaluateForGain(armTimer:)``), and the loop publishes that evaluation only if it gains a
///   requirement and loses none; anything else waits for the timer. At most `eagerEvaluationsPerWindow`
///   batches per window are evaluated this way, so a storm while offline costs a bounded number of
///   lookups. A network that appears and is gone again within the window is reported up and then, at
///   the timer, down: a job that started meanwhile meets its requirements-lost policy.
package struct ConnectivityDebounce: Sendable, Hashable {
    /// What the I/O loop must do next.
    package enum Action: Sendable, Hashable {
        /// Nothing.
        case none
        /// Evaluate connectivity now and publish the result.
        case evaluate
        /// Arm a timer of one window; report its firing with this generation.
        case armTimer(generation: UInt64)
        /// Evaluate connectivity now and publish the result only if it is a gain over the published
        /// status; then, when `armTimer` is not `nil`, arm a timer of one window with that generation.
        case evaluateForGain(armTimer: UInt64?)
    }

    private enum State: Sendable, Hashable {
        /// No hint is pending.
        case idle
        /// A timer is armed; `sawHints` records hints that arrived after it was armed and were not
        /// evaluated at once; `eager` counts the batches of this window evaluated at once.
        case waiting(generation: UInt64, extensions: Int, sawHints: Bool, eager: Int)
    }

    /// Whether the window is zero (no timer at all).
    package let isImmediate: Bool
    /// How many times a timer may be re-armed for one burst.
    package let maximumExtensions: Int
    /// How many batches of hints one window may evaluate at once, looking for a gain.
    package let eagerEvaluationsPerWindow: Int
    private var state = State.idle
    private var generation: UInt64 = 0

    /// Creates the machine.
    /// - Parameters:
    ///   - isImmediate: `true` for a zero debounce window.
    ///   - maximumExtensions: the re-arm limit for a burst that does not pause.
    ///   - eagerEvaluationsPerWindow: how many batches per window may be evaluated at once for a gain.
    package init(isImmediate: Bool, maximumExtensions: Int = 4, eagerEvaluationsPerWindow: Int = 8) {
        self.isImmediate = isImmediate
        self.maximumExtensions = max(0, maximumExtensions)
        self.eagerEvaluationsPerWindow = max(0, eagerEvaluationsPerWindow)
    }

    /// Whether a timer is armed and not yet reported as fired.
    package var isTimerArmed: Bool {
        if case .waiting = state { return true }
        return false
    }

    /// A batch of one or more hints was read.
    ///
    /// - Parameter mayGain: whether the published status lacks a network requirement, so that the hints
    ///   may bring one.
    package mutating func hintsReceived(mayGain: Bool = false) -> Action {
        if isImmediate { return .evaluate }
        switch state {
        case .idle:
            generation &+= 1
            let eager = mayGain && eagerEvaluationsPerWindow > 0
            state = .waiting(generation: generation, extensions: 0, sawHints: false, eager: eager ? 1 : 0)
            return eager ? .evaluateForGain(armTimer: generation) : .armTimer(generation: generation)
        case .waiting(let armed, let extensions, let sawHints, let eager):
            if mayGain && eager < eagerEvaluationsPerWindow {
                state = .waiting(generation: armed, extensions: extensions, sawHints: sawHints, eager: eager + 1)
                return .evaluateForGain(armTimer: nil)
            }
            state = .waiting(generation: armed, extensions: extensions, sawHints: true, eager: eager)
            return .none
        }
    }

    /// The timer armed with `firedGeneration` fired; stale generations are ignored.
    package mutating func timerFired(generation firedGeneration: UInt64) -> Action {
        guard case .waiting(let armed, let extensions, let sawHints, _) = state, armed == firedGeneration else {
            return .none
        }
        if sawHints && extensions < maximumExtensions {
            generation &+= 1
            state = .waiting(generation: generation, extensions: extensions + 1, sawHints: false, eager: 0)
            return .armTimer(generation: generation)
        }
        state = .idle
        return .evaluate
    }

    /// Whether `candidate`, evaluated early, may be published over `published`: it satisfies every network
    /// requirement that `published` satisfies, and at least one more.
    package static func isGain(_ candidate: ConnectivityStatus, over published: ConnectivityStatus) -> Bool {
        let had = networkRequirements(in: published)
        let has = networkRequirements(in: candidate)
        return has.isStrictSuperset(of: had)
    }

    /// Whether a change could bring `published` a network requirement it lacks.
    package static func mayGain(over published: ConnectivityStatus) -> Bool {
        networkRequirements(in: published) != decidedByNetwork
    }

    private static let decidedByNetwork = SyncRequirements.decided(by: .network)

    /// The requirements decided by the network part that hold in `status`.
    private static func networkRequirements(in status: ConnectivityStatus) -> SyncRequirements {
        SyncEnvironmentStatus(connectivity: status, monitoredParts: .network).satisfiedRequirements
            .intersection(decidedByNetwork)
    }
}
