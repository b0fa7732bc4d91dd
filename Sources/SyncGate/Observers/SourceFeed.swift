/// One source of one part of the environment, reduced to what the environment needs from it.
struct SourceFeed<Value: Sendable & Equatable>: Sendable {
    /// Reads the source's current value.
    let current: @Sendable () -> Value
    /// Opens a new stream of the source's values.
    let stream: @Sendable () -> AsyncStream<Value>
    /// The source's broadcast, when SyncGate built the source and can follow it synchronously.
    let broadcast: StatusBroadcast<Value>?

    init<Source: Sendable>(
        _ source: Source,
        current: @escaping @Sendable (Source) -> Value,
        stream: @escaping @Sendable (Source) -> AsyncStream<Value>
    ) {
        self.current = { current(source) }
        self.stream = { stream(source) }
        self.broadcast = (source as? any BroadcastBacked<Value>)?.broadcast
    }

    /// Keeps `mirror` equal to the source's value from now on, and returns the link that does it.
    func follow(into mirror: StatusBroadcast<Value>) -> SourceLink {
        if let broadcast {
            let observer = broadcast.addObserver { [weak broadcast, weak mirror] _ in
                guard let broadcast, let mirror else { return }
                mirror.update { $0 = broadcast.value }
            }
            mirror.update { $0 = broadcast.value }
            return SourceLink(broadcast: broadcast, observer: observer)
        }
        let values = stream()
        let task = Task { [weak mirror] in
            for await value in values {
                guard let mirror else { return }
                mirror.send(value)
            }
        }
        return SourceLink(task: task)
    }
}

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

/// A broadcast that can be finished without knowing its value type.
protocol FinishableBroadcast {
    func finish()
}

extension StatusBroadcast: FinishableBroadcast {}
