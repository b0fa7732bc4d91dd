/// The sync activity of a container as a pure value: the events that started and have not ended, and
/// the ``SyncEvent`` they mean.
///
/// Unlike iCloudSyncStatusKit's mapping, every event type returns to idle when its event ends (a setup
/// included), and two overlapping events (an import during an export) keep the engine busy until both
/// end: the activity is the highest of setup, importing, exporting among the unfinished events.
struct SyncEventTracker: Sendable, Hashable {
    private var running: [String: SyncEvent] = [:]

    /// The activity now: ``SyncEvent/idle`` when no event is running.
    package var current: SyncEvent {
        let order: [SyncEvent] = [.setup, .importing, .exporting]
        return order.first { event in running.values.contains(event) } ?? .idle
    }

    /// Applies one event and returns the activity after it.
    @discardableResult
    mutating func apply(_ event: CloudKitEventFacts) -> SyncEvent {
        if event.isFinished {
            running[event.identifier] = nil
        } else if let activity = event.type.syncEvent {
            running[event.identifier] = activity
        }
        return current
    }
}
