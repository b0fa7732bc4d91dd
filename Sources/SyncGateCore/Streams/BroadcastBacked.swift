/// A source whose value lives in a ``StatusBroadcast``, so ``SyncEnvironment`` follows it synchronously,
/// on the thread that changes it, instead of through a stream and a task hop.
///
/// Package-only so that no one outside can reach a SyncGate observer's broadcast and send into it; apps
/// take the same path through the public ``StatusFeed``, which conforms.
package protocol BroadcastBacked<Value>: Sendable {
    /// The type of the published value.
    associatedtype Value: Sendable & Equatable
    /// The broadcast that holds the value.
    var broadcast: StatusBroadcast<Value> { get }
}
