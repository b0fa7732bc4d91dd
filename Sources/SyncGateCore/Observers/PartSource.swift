/// The source of one part of a ``SyncEnvironment``, reduced to what the environment needs from it.
struct PartSource<Value: Sendable & Equatable>: Sendable {
    /// Reads the source's current value.
    let current: @Sendable () -> Value
    /// Opens a new stream of the source's values.
    let stream: @Sendable () -> AsyncStream<Value>
    /// The source's broadcast, when the source is SyncGate's own or a ``StatusFeed``: then it is followed
    /// synchronously.
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

    /// Keeps the source's field of `combined` equal to the source's value from now on, and returns the
    /// link that does it.
    ///
    /// A broadcast-backed source is followed by a synchronous observer on the thread that changes it; it
    /// reads the source's newest value inside `combined`'s critical section (lock order: `combined`, then
    /// the source's broadcast, which never calls out while locked), so two changes made at once on two
    /// threads never leave an older value behind. Any other source is followed through its stream by one
    /// task.
    func follow(
        into combined: StatusBroadcast<SyncEnvironmentStatus>,
        assign: @escaping @Sendable (inout SyncEnvironmentStatus, Value) -> Void
    ) -> SourceLink {
        if let broadcast {
            let observer = broadcast.addObserver { [weak broadcast, weak combined] _ in
                guard let broadcast, let combined else { return }
                combined.update { assign(&$0, broadcast.value) }
            }
            // A change between the environment's first read and the observer's registration is not lost.
            combined.update { assign(&$0, broadcast.value) }
            return SourceLink(broadcast: broadcast, observer: observer)
        }
        let values = stream()
        let task = Task { [weak combined] in
            for await value in values {
                guard let combined else { return }
                combined.update { assign(&$0, value) }
            }
        }
        return SourceLink(task: task)
    }
}
