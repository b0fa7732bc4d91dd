/// The sync-event source: `NSPersistentCloudKitContainer.eventChangedNotification` of every container,
/// or of one, mapped onto ``SyncEvent`` (setup, importing, exporting, back to idle when the events end),
/// and the full-storage report (``QuotaExceededHook``).
///
/// Created on Apple platforms by ``SyncEnvironment/init(monitoring:cloudKit:)`` when sync events are
/// monitored.
public final class CloudKitSyncEventSource: BroadcastBacked, SyncEventObserving {
    /// The broadcast that holds the activity.
    package let broadcast: StatusBroadcast<SyncEvent>
    private let observer: any CloudKitEventObserving
    private let tracker = LockedState(SyncEventTracker())
    private let stopped = LockedState(false)
    /// The container followed (`ObjectIdentifier` of one `NSPersistentCloudKitContainer`); `nil` for all.
    package let container: ObjectIdentifier?
    /// Called when an event fails because the iCloud storage is full.
    public let quotaExceeded: QuotaExceededHook?

    /// Follows `observer`'s events, those of `container` only when one is given.
    init(observer: any CloudKitEventObserving, container: ObjectIdentifier? = nil, quotaExceeded: QuotaExceededHook?) {
        self.observer = observer
        self.container = container
        self.quotaExceeded = quotaExceeded
        let broadcast = StatusBroadcast(SyncEvent.idle)
        self.broadcast = broadcast
        let tracker = tracker
        observer.startObserving { event in
            Self.handle(event, container: container, tracker: tracker, broadcast: broadcast, quota: quotaExceeded)
        }
    }

    deinit {
        stop()
        broadcast.finish()
    }

    /// What the sync engine is doing now. Thread-safe.
    public var event: SyncEvent { broadcast.value }

    /// A new multicast stream: the current activity first, then every change.
    public var eventStream: AsyncStream<SyncEvent> { broadcast.stream(retaining: self) }

    /// Stops following the notifications, once.
    func stop() {
        let first = stopped.withLock { wasStopped in
            defer { wasStopped = true }
            return !wasStopped
        }
        if first { observer.stopObserving() }
    }

    /// Applies one event: filters by container, publishes the activity, reports a full storage and
    /// re-arms the quota hook after a successful export.
    static func handle(
        _ event: CloudKitEventFacts, container: ObjectIdentifier?, tracker: LockedState<SyncEventTracker>,
        broadcast: StatusBroadcast<SyncEvent>, quota: QuotaExceededHook?
    ) {
        if let container, event.container != container { return }
        // The tracker's answer is published inside the broadcast's update, so two events delivered at
        // once can never publish in the wrong order.
        broadcast.update { current in current = tracker.withLock { $0.apply(event) } }
        guard event.isFinished else { return }
        if !event.succeeded, let error = event.error {
            if error.containsQuotaExceeded {
                SyncGateLog.log(.error, "iCloud quota exceeded: \(event.type) failed (\(error.description))")
                quota?.report()
            } else {
                SyncGateLog.log(.warning, "sync event \(event.type) failed: \(error.description)")
            }
        } else if event.succeeded, event.type == .export {
            quota?.rearm()
        }
    }
}
