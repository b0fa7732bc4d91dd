import Foundation

/// One scheduler event as the scheduler's ordered event hooks receive it.
///
/// A hook (see `SchedulerShell.addEventHook(_:)`) gets every event in the scheduler's order, outside
/// its lock; the durable-job layer turns the events of its jobs into journal records this way.
package struct SchedulerEventDelivery: Sendable {
    /// The event's place in the scheduler's order, from 1.
    package let sequence: UInt64
    /// The event; `nil` for a calendar series planned again from a wall clock set back before the span
    /// it had planned through, which is no public event but changes what the durable layer keeps of the
    /// series (``calendar``, with its ``CalendarProgress/heldSpan``). Such a delivery takes the
    /// ``sequence`` of the event before it.
    package let event: SyncSchedulerEvent?
    /// What the submitter attached to the job the event is about, if anything.
    package let attachment: (any AnyObject & Sendable)?
    /// Whether the scheduler had been shut down when the event happened.
    package let isShutDown: Bool
    /// For an event of a calendar job, where its series stood when the event happened; `nil` for other
    /// jobs.
    package var calendar: CalendarProgress? = nil

    /// Where a calendar job's series stands: what the durable layer keeps of it.
    package struct CalendarProgress: Sendable, Equatable {
        /// The latest occurrence that ran or was skipped; `nil` before the series began.
        package var lastOccurrence: Date?
        /// The occurrence the current period stands for (the one running, waiting or caught up); `nil`
        /// between periods.
        package var occurrence: Date?
        /// The series' counts so far.
        package var counts: SyncJobInfo.Periods
        /// The span of wall-clock instants the series had planned through when the wall clock was set
        /// back before it (its occurrences are not planned again); `nil` when there is none.
        package var heldSpan: ClosedRange<Date>?

        /// Creates a series' position.
        package init(
            lastOccurrence: Date?, occurrence: Date?, counts: SyncJobInfo.Periods, heldSpan: ClosedRange<Date>? = nil
        ) {
            self.lastOccurrence = lastOccurrence
            self.occurrence = occurrence
            self.counts = counts
            self.heldSpan = heldSpan
        }
    }
}
