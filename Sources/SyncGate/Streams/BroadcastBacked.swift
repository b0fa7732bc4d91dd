/// A source whose value lives in a ``StatusBroadcast``, so consumers inside the package can follow it
/// synchronously, on the thread that changes it, instead of through a stream and a task hop.
package protocol BroadcastBacked<Value>: Sendable {
    /// The type of the published value.
    associatedtype Value: Sendable & Equatable
    /// The broadcast that holds the value.
    var broadcast: StatusBroadcast<Value> { get }
}
