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
    ///
    /// Always inlined: the sources arrive as existentials of the part protocols, whose value type is
    /// concrete, so inlined at the call site the code that follows a source is specialized for that value
    /// type (called from a generic context, it would copy and assign every change through metadata).
    @inline(__always)
    init<Source: PartObserving>(
        _ source: Source,
        part: MonitoringOptions,
        assign: @escaping @Sendable (inout SyncEnvironmentStatus, Source.Status) -> Void
    ) {
        self.init(
            part: part, source: source, current: { source.status }, stream: { source.statusStream },
            broadcast: (source as? any BroadcastBacked<Source.Status>)?.broadcast, assign: assign)
    }

    private init<Status: Sendable & Equatable>(
        part: MonitoringOptions,
        source: any Sendable,
        current: @escaping @Sendable () -> Status,
        stream: @escaping @Sendable () -> AsyncStream<Status>,
        broadcast: StatusBroadcast<Status>?,
        assign: @escaping @Sendable (inout SyncEnvironmentStatus, Status) -> Void
    ) {
        self.part = part
        self.source = source
        read = { assign(&$0, current()) }
        if let broadcast {
            link = { Self.follow(broadcast, into: $0, assign: assign) }
        } else {
            link = { Self.follow(stream(), into: $0, assign: assign) }
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
        // No weak references: an object ever weakly referenced keeps its reference counts in a side table,
        // and every retain and release of it then takes the runtime's slow path, on every change. The
        // broadcast calls this observer itself, from a method of its own, so it is alive whenever the
        // observer runs and the closure needs no count of its own on it (an `unowned` capture would check
        // and count it on every call); `combined` is held until the environment cancels the link (its
        // deinitializer does), which removes the observer.
        let observer = broadcast.addObserver { [unowned(unsafe) broadcast, combined] _ in
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
        // `combined` is held until the environment cancels the link (its deinitializer does), which ends
        // the loop.
        let task = Task { [combined] in
            for await value in values {
                combined.update { assign(&$0, value) }
            }
        }
        return SourceLink(task: task)
    }
}
