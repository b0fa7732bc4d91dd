/// A subscription the environment holds on a source: an observer token or a task reading a stream.
struct SourceLink: Sendable {
    private let cancelAction: @Sendable () -> Void

    init<Value>(broadcast: StatusBroadcast<Value>, observer: UInt64) {
        cancelAction = { [weak broadcast] in broadcast?.removeObserver(observer) }
    }

    init(task: Task<Void, Never>) {
        cancelAction = { task.cancel() }
    }

    /// Ends the subscription.
    func cancel() {
        cancelAction()
    }
}
