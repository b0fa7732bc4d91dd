/// The source of one part of a ``SyncEnvironment``, bound to the field of ``SyncEnvironmentStatus`` it
/// keeps current and reduced to what the environment needs from it.
struct PartSource: Sendable {
    /// The part the source monitors.
    let part: MonitoringOptions
    /// The source itself, which the environment keeps alive.
    let source: any Sendable
    /// Writes the source's current value into its field.
    private let read: @Sendable (inout SyncEnvironmentStatus) -> Void
    /// Follows the source into its field of a combined status.
    private let link: @Sendable (StatusBroadcast<SyncEnvironmentStatus>) -> SourceLink

    /// Binds `source` to the field of the combined status that `part` names, which `assign` writes.
    ///
    /// `assign` is a plain closure rather than a key path: it runs on every change of the source, inside
    /// the combined status's critical section.
    init<Source: PartObserving>(
        _ source: Source,
        part: MonitoringOptions,
        assign: @escaping @Sendable (inout SyncEnvironmentStatus, Source.Status) -> Void
    ) {
        typealias Status = Source.Status
        self.part = part
        self.source = source
        read = { assign(&$0, source.status) }
        if let broadcast = (source as? any BroadcastBacked<Status>)?.broadcast {
            link = { Self.follow(broadcast, into: $0, assign: assign) }
        } else {
            link = { Self.follow(source.statusStream, into: $0, assign: assign) }
        }
    }

    /// Writes the source's current value into its field of `status`.
    func read(into status: inout SyncEnvironmentStatus) {
        read(&status)
    }

    /// Keeps the source's field of `combined` equal to the source's value from now on, and returns the
    /// link that does it.
    ///
    /// A broadcast-backed source (SyncGate's own, or a ``StatusFeed``) is followed by a synchronous
    /// observer on the thread that changes it; it reads the source's newest value inside `combined`'s
    /// critical section (lock order: `combined`, then the source's broadcast, which never calls out while
    /// locked), so two changes made at once on two threads never leave an older value behind. Any other
    /// source is followed through its stream by one task.
    func follow(into combined: StatusBroadcast<SyncEnvironmentStatus>) -> SourceLink {
        link(combined)
    }

    private static func follow<Status: Sendable & Equatable>(
        _ broadcast: StatusBroadcast<Status>,
        into combined: StatusBroadcast<SyncEnvironmentStatus>,
        assign: @escaping @Sendable (inout SyncEnvironmentStatus, Status) -> Void
    ) -> SourceLink {
        let observer = broadcast.addObserver { [weak broadcast, weak combined] _ in
            guard let broadcast, let combined else { return }
            combined.update { assign(&$0, broadcast.value) }
        }
        // A change between the environment's first read and the observer's registration is not lost.
        combined.update { assign(&$0, broadcast.value) }
        return SourceLink(broadcast: broadcast, observer: observer)
    }

    private static func follow<Status: Sendable & Equatable>(
        _ values: AsyncStream<Status>,
        into combined: StatusBroadcast<SyncEnvironmentStatus>,
        assign: @escaping @Sendable (inout SyncEnvironmentStatus, Status) -> Void
    ) -> SourceLink {
        let task = Task { [weak combined] in
            for await value in values {
                guard let combined else { return }
                combined.update { assign(&$0, value) }
            }
        }
        return SourceLink(task: task)
    }
}
