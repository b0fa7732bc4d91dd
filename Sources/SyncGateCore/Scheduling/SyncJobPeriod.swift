/// How a periodic job repeats: every ``interval``, with a window of ``flex`` at the end of each
/// interval in which a run may start.
///
/// The first interval begins when the job becomes eligible (its submission, after its `delay` and its
/// dependencies). Periods follow each other back to back: the one after a run begins where the run's
/// period ends, wherever in its window the run started, so a series keeps its cadence and runs at most
/// once per period; two runs are at least `interval − flex` apart. A run may start anywhere in the last
/// ``flex`` of its interval (WorkManager's rule), and only when the job's requirements hold. When the window closes without a
/// run, that period is skipped and counted (``SyncJobInfo/periods``), and the next interval begins
/// where the skipped one ended: after a long time offline the series resumes with one run, never a
/// burst. Two runs of one series never overlap: the next period is planned when the previous run
/// has returned, and periods whose windows closed meanwhile are skipped.
///
/// A periodic job ends only when it is cancelled; a failed period (after its retries) is counted and
/// the series goes on.
///
/// ```swift
/// var options = SyncJobOptions(requires: .unmetered)
/// options.period = SyncJobPeriod(every: .seconds(3600), flex: .seconds(900))
/// let handle = try scheduler.submit(SyncJob(options: options) { _ in try await refreshFeed() })
/// ```
public struct SyncJobPeriod: Sendable, Hashable {
    /// The length of one period.
    public var interval: Duration
    /// The length of the window at the end of each period in which a run may start; positive and
    /// shorter than ``interval``.
    public var flex: Duration

    /// Creates a period.
    ///
    /// - Parameters:
    ///   - interval: the length of one period.
    ///   - flex: the window at the end of each period in which a run may start.
    public init(every interval: Duration, flex: Duration) {
        self.interval = interval
        self.flex = flex
    }

    /// The first problem with the period, naming the field and its value, or `nil` when it is valid.
    var validationError: SyncJobRefusal? {
        if interval <= .zero {
            return .option("period.interval", "\(interval)", "period.interval must be positive, got \(interval)")
        }
        if flex <= .zero || flex >= interval {
            return .option(
                "period.flex", "\(flex)",
                "period.flex must be positive and shorter than period.interval (\(interval)), got \(flex)")
        }
        return nil
    }
}
