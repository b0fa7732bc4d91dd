extension SyncJobPeriod {
    /// Where a series continued after a restart stands: the beginning of one of its periods, counted
    /// from the job's submission to the scheduler (negative when it lies in the past), and the counts
    /// so far.
    ///
    /// The durable layer sets it (``SyncJobOptions/periodResume``) on a restored periodic job; the
    /// series then begins at that period instead of a new one, so periods whose windows closed while
    /// the app was not running are skipped and counted, never run in a burst.
    struct Resume: Sendable, Hashable {
        /// The beginning of a period of the series, relative to the job's submission.
        var anchor: Duration
        /// The counts of the series so far.
        var counts: SyncJobInfo.Periods
    }
}
