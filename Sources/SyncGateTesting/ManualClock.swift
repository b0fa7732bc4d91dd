import SyncGateCore

/// A clock that moves only when a test tells it to.
///
/// Sleepers wake when ``advance(by:)`` or ``advance(to:)`` reaches their deadline, in deadline order
/// (ties in the order they went to sleep). A cancelled sleeper is removed and throws
/// `CancellationError`. ``waitForSleepers(_:)`` lets a test wait until the code under test has armed its
/// timers, so it never races a timer being armed; ``waitForSleeper(until:)`` waits for one timer, known
/// by its deadline, when other timers (a call's timeout, say) may be armed or going away meanwhile.
///
/// Advancing moves time in one jump: a task woken by the jump that then sleeps again measures its new
/// deadline from the new time. Advance in steps to follow a chain of timers.
public final class ManualClock: Clock, Sendable {
    /// A point in the clock's time: an offset from its start.
    public struct Instant: InstantProtocol, CustomStringConvertible {
        /// The time since the clock's start.
        public var offset: Duration

        /// Creates an instant at `offset` from the clock's start.
        public init(offset: Duration) {
            self.offset = offset
        }

        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        /// The duration from this instant to `other`.
        public func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        /// Whether `lhs` comes before `rhs`.
        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }

        /// The offset, such as `1.5 seconds`.
        public var description: String { "\(offset)" }
    }

    private enum Sleeper {
        /// Registered; the continuation has not arrived yet.
        case pending(Instant)
        /// Suspended until the deadline.
        case waiting(Instant, CheckedContinuation<Void, any Error>)
        /// The deadline passed before the continuation arrived.
        case fired
        /// Cancelled before the continuation arrived (or before the sleeper registered).
        case cancelled

        /// The deadline of an armed sleeper (pending or waiting); `nil` for the others.
        var armedDeadline: Instant? {
            switch self {
            case .pending(let deadline), .waiting(let deadline, _): deadline
            case .fired, .cancelled: nil
            }
        }
    }

    private struct State {
        var now = Instant(offset: .zero)
        var nextID: UInt64 = 0
        private(set) var sleepers: [UInt64: Sleeper] = [:]
        var sleeperWaiters: [(id: UInt64, condition: WaitCondition, continuation: CheckedContinuation<Void, Never>)] =
            []

        /// The number of armed sleepers (pending or waiting), and how many are armed at each deadline: kept
        /// as sleepers change, so a registration checks the test's waiters in O(1), not O(sleepers).
        private(set) var armedCount = 0
        private var armedAt: [Instant: Int] = [:]

        /// A sleeper's record; every change goes through here, which keeps the armed counts.
        subscript(sleeper id: UInt64) -> Sleeper? {
            get { sleepers[id] }
            set {
                if let old = sleepers[id]?.armedDeadline {
                    armedCount -= 1
                    armedAt[old, default: 0] -= 1
                    if armedAt[old] == 0 { armedAt[old] = nil }
                }
                if let new = newValue?.armedDeadline {
                    armedCount += 1
                    armedAt[new, default: 0] += 1
                }
                sleepers[id] = newValue
            }
        }

        var armedDeadlines: [Instant] { sleepers.values.compactMap(\.armedDeadline) }

        func isSatisfied(_ condition: WaitCondition) -> Bool {
            switch condition {
            case .count(let count): armedCount >= count
            case .deadline(let deadline): armedAt[deadline] != nil
            }
        }

        mutating func takeSatisfiedWaiters() -> [CheckedContinuation<Void, Never>] {
            guard !sleeperWaiters.isEmpty else { return [] }
            var ready: [CheckedContinuation<Void, Never>] = []
            var waiting = sleeperWaiters
            sleeperWaiters = []
            waiting.removeAll { waiter in
                guard isSatisfied(waiter.condition) else { return false }
                ready.append(waiter.continuation)
                return true
            }
            sleeperWaiters = waiting
            return ready
        }
    }

    /// What a test waits for: a number of sleepers, or one with a given deadline.
    private enum WaitCondition {
        case count(Int)
        case deadline(Instant)

    }

    private let state = LockedState(State())

    /// Creates a clock at offset zero.
    public init() {}

    /// The current instant.
    public var now: Instant { state.withLock { $0.now } }

    /// The smallest step of the clock: zero.
    public var minimumResolution: Duration { .zero }

    /// The number of tasks sleeping on the clock now.
    public var sleeperCount: Int { state.withLock { $0.armedCount } }

    /// The number of calls of ``waitForSleepers(_:)`` and ``waitForSleeper(until:)`` suspended now (for the
    /// clock's own tests).
    var suspendedWaitCount: Int { state.withLock { $0.sleeperWaiters.count } }

    /// The deadlines of the tasks sleeping now, earliest first.
    public var sleeperDeadlines: [Instant] {
        state.withLock { $0.armedDeadlines.sorted() }
    }

    /// Sleeps until the clock reaches `deadline`; returns at once if it already has.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        // The sleeper is registered inside the cancellation handler's scope, so a cancellation from the
        // moment it counts as sleeping takes it out at once, on the cancelling thread: a test that cancels
        // a timer and then reads `sleeperCount` never sees it. A cancellation that comes before the
        // registration leaves a tombstone (`.cancelled`) that the registration finds.
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        defer {
            state.withLock { state in
                if case .cancelled = state[sleeper: id] { state[sleeper: id] = nil }
            }
        }
        try await withTaskCancellationHandler {
            let registration: Registration = state.withLock { state in
                if case .cancelled = state[sleeper: id] { return .cancelled }
                guard deadline > state.now else { return .due }
                state[sleeper: id] = .pending(deadline)
                return .registered(state.takeSatisfiedWaiters())
            }
            switch registration {
            case .due: return
            case .cancelled: throw CancellationError()
            case .registered(let satisfied): for waiter in satisfied { waiter.resume() }
            }
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let result: Result<Void, any Error>? = state.withLock { state in
                    switch state[sleeper: id] {
                    case .pending(let deadline):
                        state[sleeper: id] = .waiting(deadline, continuation)
                        return nil
                    case .fired:
                        state[sleeper: id] = nil
                        return .success(())
                    case .cancelled:
                        state[sleeper: id] = nil
                        return .failure(CancellationError())
                    case .waiting, nil:
                        preconditionFailure("ManualClock sleeper \(id) suspended twice")
                    }
                }
                if let result { continuation.resume(with: result) }
            }
        } onCancel: {
            let continuation: CheckedContinuation<Void, any Error>? = state.withLock { state in
                switch state[sleeper: id] {
                case .pending, nil:
                    // Pending: it never suspends. Not registered yet: the registration finds the tombstone.
                    // Already ended: the tombstone is removed when `sleep` returns.
                    state[sleeper: id] = .cancelled
                    return nil
                case .waiting(_, let continuation):
                    state[sleeper: id] = nil
                    return continuation
                case .fired, .cancelled:
                    return nil
                }
            }
            continuation?.resume(throwing: CancellationError())
        }
    }

    /// How a sleeper's registration went.
    private enum Registration {
        /// The deadline has already passed: return at once.
        case due
        /// Cancelled before it registered.
        case cancelled
        /// Registered; the waiters of `waitForSleepers` that it satisfies.
        case registered([CheckedContinuation<Void, Never>])
    }

    /// Moves the clock forward by `duration` and wakes every sleeper whose deadline it reaches.
    public func advance(by duration: Duration) {
        precondition(duration >= .zero, "ManualClock.advance(by:): duration \(duration) is negative")
        advance(to: now.advanced(by: duration))
    }

    /// Moves the clock to `instant` (if it is later than now) and wakes every sleeper it reaches.
    public func advance(to instant: Instant) {
        let due: [CheckedContinuation<Void, any Error>] = state.withLock { state in
            if instant > state.now { state.now = instant }
            var due: [(deadline: Instant, id: UInt64, continuation: CheckedContinuation<Void, any Error>?)] = []
            for (id, sleeper) in state.sleepers {
                switch sleeper {
                case .pending(let deadline) where deadline <= state.now:
                    state[sleeper: id] = .fired
                    due.append((deadline, id, nil))
                case .waiting(let deadline, let continuation) where deadline <= state.now:
                    state[sleeper: id] = nil
                    due.append((deadline, id, continuation))
                default:
                    break
                }
            }
            due.sort { ($0.deadline, $0.id) < ($1.deadline, $1.id) }
            return due.compactMap(\.continuation)
        }
        for continuation in due {
            continuation.resume()
        }
    }

    /// Advances the clock to the earliest sleeper's deadline, waking it; returns `false` if none sleeps.
    @discardableResult
    public func advanceToNextDeadline() -> Bool {
        guard let next = sleeperDeadlines.first else { return false }
        advance(to: next)
        return true
    }

    /// Waits until at least `count` tasks are sleeping on the clock.
    ///
    /// Any sleeper counts, including one about to be cancelled: when other timers may be armed, wait for
    /// the one needed with ``waitForSleeper(until:)``. Returns early when the calling task is cancelled (a
    /// test past its time limit, say), so a wait for sleepers that never come fails that test instead of
    /// hanging the test run.
    public func waitForSleepers(_ count: Int = 1) async {
        await wait(for: .count(count))
    }

    /// Waits until a task is sleeping on the clock until exactly `deadline`.
    ///
    /// Timers with other deadlines do not count, so a test can wait for one specific timer (a retry, say)
    /// while others (a call's timeout) come and go. Returns early when the calling task is cancelled.
    public func waitForSleeper(until deadline: Instant) async {
        await wait(for: .deadline(deadline))
    }

    private func wait(for condition: WaitCondition) async {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state in
                    // Checked under the lock: a cancellation either came before (seen here) or finds the waiter.
                    if state.isSatisfied(condition) || Task.isCancelled { return true }
                    state.sleeperWaiters.append((id, condition, continuation))
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
                guard let index = state.sleeperWaiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.sleeperWaiters.remove(at: index).continuation
            }
            continuation?.resume()
        }
    }
}
