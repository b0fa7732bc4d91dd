/// One scheduler event as the scheduler's ordered event hooks receive it.
///
/// A hook (see `SchedulerShell.addEventHook(_:)`) gets every event in the scheduler's order, outside
/// its lock; the durable-job layer turns the events of its jobs into journal records this way.
package struct SchedulerEventDelivery: Sendable {
    /// The event's place in the scheduler's order, from 1.
    package let sequence: UInt64
    /// The event.
    package let event: SyncSchedulerEvent
    /// What the submitter attached to the job the event is about, if anything.
    package let attachment: (any AnyObject & Sendable)?
    /// Whether the scheduler had been shut down when the event happened.
    package let isShutDown: Bool
}
