/// Who needs the demand-driven requirements now: a count per requirement of the jobs and waiters that
/// need it, and the sources to tell when a count starts or stops being zero.
///
/// A source whose reading costs something (``StorageObserver``'s `statvfs` timer) reads only while its
/// requirement is needed. The scheduler registers each unfinished job that needs a demand-driven
/// requirement (``SyncRequirements/demandDriven``) from its submission to its resolution, and
/// ``SyncEnvironment/waitUntil(_:conditions:timeout:)`` registers each waiter for the length of its wait.
///
/// The counts are a value behind a leaf lock; listeners are called after the lock is released, and read
/// ``isNeeded(_:)`` inside their own critical section, so two changes on two threads never leave a
/// listener with an older answer.
package final class RequirementDemand: Sendable {
    private struct State {
        var counts: [UInt64: Int] = [:]
        var listeners: [(requirement: SyncRequirements, notify: @Sendable () -> Void)] = []
    }

    private let state = LockedState(State())

    /// Creates a demand with nobody needing anything.
    package init() {}

    /// Whether some job or waiter needs any of `requirements` now.
    package func isNeeded(_ requirements: SyncRequirements) -> Bool {
        state.withLock { state in
            Self.bits(of: requirements).contains { state.counts[$0, default: 0] > 0 }
        }
    }

    /// Calls `notify` (outside any lock of the demand) whenever `requirement` starts or stops being needed.
    package func addListener(for requirement: SyncRequirements, _ notify: @escaping @Sendable () -> Void) {
        state.withLock { $0.listeners.append((requirement, notify)) }
    }

    /// Registers one more job or waiter that needs `requirements` (only the demand-driven ones count).
    package func retain(_ requirements: SyncRequirements) {
        change(requirements, by: 1)
    }

    /// Ends a registration made with ``retain(_:)``.
    package func release(_ requirements: SyncRequirements) {
        change(requirements, by: -1)
    }

    private func change(_ requirements: SyncRequirements, by delta: Int) {
        let tracked = requirements.intersection(.demandDriven)
        guard !tracked.isEmpty else { return }
        let notify: [@Sendable () -> Void] = state.withLock { state in
            var flipped: SyncRequirements = []
            for bit in Self.bits(of: tracked) {
                let before = state.counts[bit, default: 0]
                let after = max(0, before + delta)
                state.counts[bit] = after
                if (before == 0) != (after == 0) { flipped.insert(SyncRequirements(rawValue: bit)) }
            }
            return state.listeners.filter { !$0.requirement.isDisjoint(with: flipped) }.map(\.notify)
        }
        for listener in notify { listener() }
    }

    private static func bits(of requirements: SyncRequirements) -> [UInt64] {
        (0..<64).map { UInt64(1) << $0 }.filter { requirements.rawValue & $0 != 0 }
    }
}
