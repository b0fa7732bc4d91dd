import Synchronization

/// How many groups of ``SyncEnvironment/waitUntil(_:conditions:timeout:)`` waiters are registered, readable
/// without the registry's lock.
///
/// Stored inside the registry's critical sections, after each change to the registry; read by the
/// environment's status observer on every change, so that a change with nobody waiting takes no lock.
/// A waiter counted after the observer read zero still sees the change: it reads the status itself,
/// under the combined broadcast's lock, after its count was stored.
final class WaiterGroupCount: Sendable {
    private let groups = Atomic<Int>(0)

    /// Whether any group was registered when this was read.
    var isEmpty: Bool { groups.load(ordering: .sequentiallyConsistent) == 0 }

    /// Stores the registry's group count; called inside its critical section.
    func store(_ count: Int) {
        groups.store(count, ordering: .sequentiallyConsistent)
    }
}
