/// The main thread as ``MainThreadFacts`` needs it: whether the caller is on it, and a way to run work
/// there later without waiting for it (`DispatchQueue.main.async` in the Apple adapter, a queue a test
/// drains by hand in the tests).
package struct MainThreadQueue: Sendable {
    /// Whether the calling thread is the main thread.
    package let isCurrent: @Sendable () -> Bool
    /// Runs the work on the main thread later, in the order enqueued, and returns at once.
    package let async: @Sendable (@escaping @Sendable () -> Void) -> Void

    /// Creates the queue from its two operations.
    package init(
        isCurrent: @escaping @Sendable () -> Bool, async: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void
    ) {
        self.isCurrent = isCurrent
        self.async = async
    }
}

/// A process-wide switch that only the main thread may flip, such as `UIDevice.isBatteryMonitoringEnabled`:
/// on while at least one ``MainThreadFacts`` observes, off once the last one stops.
///
/// ``acquire()`` and ``release()`` are called on the main thread only, so the switch changes in the
/// order the main thread runs them.
package final class MainThreadMonitoring: Sendable {
    private let holders = LockedState(0)
    private let set: @Sendable (Bool) -> Void

    /// Creates the switch; `set` flips it, on the main thread.
    package init(set: @escaping @Sendable (Bool) -> Void) {
        self.set = set
    }

    /// Counts one more holder; the first turns the switch on. Main thread only.
    func acquire() {
        let first = holders.withLock { count in
            count += 1
            return count == 1
        }
        if first { set(true) }
    }

    /// Counts one holder less; the last turns the switch off. Main thread only.
    func release() {
        let last = holders.withLock { count in
            count -= 1
            return count == 0
        }
        if last { set(false) }
    }
}

/// Facts that only the main thread may read (UIKit's `UIDevice` battery), for a reader that any thread
/// calls and that must never wait for the main thread.
///
/// The main thread may itself be waiting for the thread that reads (a `DispatchQueue.main.sync` from
/// there would then deadlock), so nothing here blocks on it:
///
/// * ``current()`` on the main thread reads the facts, keeps them and returns them. On any other thread
///   it returns the facts the main thread read last, or `unknown` until the main thread has read any.
/// * ``start(_:)`` holds the ``MainThreadMonitoring`` switch and reads the facts on the main thread: at
///   once when called there. Called elsewhere, it enqueues that work on the main thread and returns;
///   once the main thread has done it, it calls `onChange` (unless ``stop()`` came first), so a follower
///   whose first reading gave `unknown` reads again, on the main thread, and publishes the facts.
/// * ``stop()`` lets go of the switch: at once on the main thread, otherwise enqueued. A start and a
///   stop take effect in the order they were called, whichever threads they come from.
///
/// Facts delivered later by the platform's notifications (observed on the main queue) are read by
/// ``current()`` on the main thread, so they are kept as the last-known facts too.
package final class MainThreadFacts<Facts: Sendable>: Sendable {
    private struct State {
        var last: Facts
        /// Between `start` and `stop`.
        var observing = false
        /// Whether this reader holds the monitoring switch; changed on the main thread only.
        var holdsMonitoring = false
    }

    private let state: LockedState<State>
    private let mainThread: MainThreadQueue
    private let monitoring: MainThreadMonitoring
    private let read: @Sendable () -> Facts

    /// Creates the reader.
    ///
    /// - Parameters:
    ///   - unknown: what ``current()`` returns off the main thread before the main thread has read.
    ///   - mainThread: the main thread.
    ///   - monitoring: the switch the facts need, shared by every reader of the process.
    ///   - read: reads the facts; called on the main thread only.
    package init(
        unknown: Facts, mainThread: MainThreadQueue, monitoring: MainThreadMonitoring,
        read: @escaping @Sendable () -> Facts
    ) {
        state = LockedState(State(last: unknown))
        self.mainThread = mainThread
        self.monitoring = monitoring
        self.read = read
    }

    /// The facts: read now on the main thread, the last-known ones elsewhere. Never blocks on the main
    /// thread.
    package func current() -> Facts {
        mainThread.isCurrent() ? refresh() : state.withLock { $0.last }
    }

    /// Holds the monitoring switch and reads the facts on the main thread; reports through `onChange`
    /// when that had to wait for the main thread. Called once.
    package func start(_ onChange: @escaping @Sendable () -> Void) {
        state.withLock { $0.observing = true }
        if mainThread.isCurrent() {
            applyMonitoring()
            _ = refresh()
            return
        }
        mainThread.async { [self] in
            applyMonitoring()
            _ = refresh()
            if state.withLock({ $0.observing }) { onChange() }
        }
    }

    /// Lets go of the monitoring switch, on the main thread. Called once, after ``start(_:)``.
    package func stop() {
        state.withLock { $0.observing = false }
        if mainThread.isCurrent() {
            applyMonitoring()
        } else {
            mainThread.async { [self] in applyMonitoring() }
        }
    }

    /// Makes the switch's hold match `observing`. Main thread only.
    private func applyMonitoring() {
        let change: Bool? = state.withLock { state in
            guard state.observing != state.holdsMonitoring else { return nil }
            state.holdsMonitoring = state.observing
            return state.observing
        }
        switch change {
        case .some(true): monitoring.acquire()
        case .some(false): monitoring.release()
        case .none: break
        }
    }

    /// Reads the facts and keeps them. Main thread only.
    private func refresh() -> Facts {
        let facts = read()
        state.withLock { $0.last = facts }
        return facts
    }
}
