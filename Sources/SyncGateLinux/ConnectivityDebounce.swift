import SyncGateCore

/// The coalescing rule of the connectivity backend: when a burst of netlink hints gets evaluated.
///
/// A pure state machine; the I/O loop feeds it and performs the actions it returns. With a zero window
/// every batch of hints read from the socket is evaluated at once. Otherwise the first hint arms one
/// timer of `window`; when it fires, the burst is evaluated unless more hints arrived meanwhile, in which
/// case the timer is armed once more — at most `maximumExtensions` times, so a burst is answered between
/// `window` and `2 × window` after its last hint, and a hint storm that never pauses is still answered
/// every `(maximumExtensions + 1) × window`. Only one timer is ever armed, whatever the event rate.
package struct ConnectivityDebounce: Sendable, Hashable {
    /// What the I/O loop must do next.
    package enum Action: Sendable, Hashable {
        /// Nothing.
        case none
        /// Evaluate connectivity now.
        case evaluate
        /// Arm a timer of one window; report its firing with this generation.
        case armTimer(generation: UInt64)
    }

    private enum State: Sendable, Hashable {
        /// No hint is pending.
        case idle
        /// A timer is armed; `sawHints` records hints that arrived after it was armed.
        case waiting(generation: UInt64, extensions: Int, sawHints: Bool)
    }

    /// Whether the window is zero (no timer at all).
    package let isImmediate: Bool
    /// How many times a timer may be re-armed for one burst.
    package let maximumExtensions: Int
    private var state = State.idle
    private var generation: UInt64 = 0

    /// Creates the machine.
    /// - Parameters:
    ///   - isImmediate: `true` for a zero debounce window.
    ///   - maximumExtensions: the re-arm limit for a burst that does not pause.
    package init(isImmediate: Bool, maximumExtensions: Int = 4) {
        self.isImmediate = isImmediate
        self.maximumExtensions = max(0, maximumExtensions)
    }

    /// Whether a timer is armed and not yet reported as fired.
    package var isTimerArmed: Bool {
        if case .waiting = state { return true }
        return false
    }

    /// A batch of one or more hints was read.
    package mutating func hintsReceived() -> Action {
        if isImmediate { return .evaluate }
        switch state {
        case .idle:
            generation &+= 1
            state = .waiting(generation: generation, extensions: 0, sawHints: false)
            return .armTimer(generation: generation)
        case .waiting(let armed, let extensions, _):
            state = .waiting(generation: armed, extensions: extensions, sawHints: true)
            return .none
        }
    }

    /// The timer armed with `firedGeneration` fired; stale generations are ignored.
    package mutating func timerFired(generation firedGeneration: UInt64) -> Action {
        guard case .waiting(let armed, let extensions, let sawHints) = state, armed == firedGeneration else {
            return .none
        }
        if sawHints && extensions < maximumExtensions {
            generation &+= 1
            state = .waiting(generation: generation, extensions: extensions + 1, sawHints: false)
            return .armTimer(generation: generation)
        }
        state = .idle
        return .evaluate
    }
}
