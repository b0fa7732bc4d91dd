extension SyncJobPeriod {
    /// Where a series continued after a restart stands: the beginning of one of its periods, counted
    /// from the job's submission to the scheduler (negative when it lies in the past), and the counts
    /// so far.
    ///
    /// The durable layer sets it (``SyncJobOptions/seriesResume``) on a restored periodic job; the
    /// series then begins at that period instead of a new one, so periods whose windows closed while
    /// the app was not running are skipped and counted, never run in a burst.
    package struct Resume: Sendable, Hashable {
        /// The beginning of a period of the series, relative to the job's submission.
        package var anchor: Duration
        /// The counts of the series so far.
        package var counts: SyncJobInfo.Periods

        /// Creates the position of a series continued at the period that begins at `anchor`.
        package init(anchor: Duration, counts: SyncJobInfo.Periods) {
            self.anchor = anchor
            self.counts = counts
        }
    }
}
