import SyncGateCore

/// A weak reference that can be filled in after the closure capturing it is made.
final class WeakBox<Value: AnyObject & Sendable>: Sendable {
    private struct Reference {
        weak var value: Value?
    }

    private let reference = LockedState(Reference())

    /// The referenced object, while it lives.
    var value: Value? {
        get { reference.withLock { $0.value } }
        set { reference.withLock { $0.value = newValue } }
    }
}
