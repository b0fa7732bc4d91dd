/// A framework object that its documentation calls safe to use from any thread, held where `Sendable`
/// is required.
///
/// Apple's SDKs add `Sendable` conformances from one release to the next (`NWPathMonitor`,
/// `CKContainer`, `BGTask`): a `nonisolated(unsafe) let` of such a type warns that it is unnecessary once
/// the conformance exists, and a plain `let` does not compile while it does not. A box compiles without
/// a warning either way.
struct UncheckedSendable<Value>: @unchecked Sendable {
    /// The object.
    let value: Value

    /// Boxes `value`.
    init(_ value: Value) {
        self.value = value
    }
}
