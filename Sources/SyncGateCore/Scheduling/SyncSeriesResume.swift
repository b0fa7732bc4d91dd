/// Where a restored job's series continues after a restart: the position of its period, calendar or
/// file-trigger series, of the kind its options name.
///
/// The durable layer sets it (``SyncJobOptions/seriesResume``) on a restored job with a series; a job
/// without one starts a new series. A resume of another kind than the job's series is ignored.
package enum SyncSeriesResume: Sendable, Hashable {
    /// A periodic series: see ``SyncJobPeriod/Resume``.
    case period(SyncJobPeriod.Resume)
    /// A calendar series: see ``SyncCalendarSchedule/Resume``.
    case calendar(SyncCalendarSchedule.Resume)
    /// A file-triggered series: see ``SyncFileTrigger/Resume``.
    case fileTrigger(SyncFileTrigger.Resume)

    /// The periodic series' position, when this is one.
    package var period: SyncJobPeriod.Resume? {
        if case .period(let resume) = self { return resume }
        return nil
    }

    /// The calendar series' position, when this is one.
    package var calendar: SyncCalendarSchedule.Resume? {
        if case .calendar(let resume) = self { return resume }
        return nil
    }

    /// The file-triggered series' position, when this is one.
    package var fileTrigger: SyncFileTrigger.Resume? {
        if case .fileTrigger(let resume) = self { return resume }
        return nil
    }
}
