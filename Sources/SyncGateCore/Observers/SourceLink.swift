/// A subscription the environment holds on a source: an observer token or a task reading a stream.
///
/// A link holds its broadcast strongly (the environment keeps its sources alive anyway): a weak reference
/// would move the broadcast's reference counts to a side table, slowing every change it sends.
struct SourceLink: Sendable {
    private let cancelAction: @Sendable () -> Void

    init<Value>(broadcast: StatusBroadcast<Value>, observer: UInt64) {
        cancelAction = { broadcast.removeObserver(observer) }
    }

    init(task: Task<Void, Never>) {
        cancelAction = { task.cancel() }
    }

    /// Ends the subscription.
    func cancel() {
        cancelAction()
    }
}
