import Foundation
import SyncGateCore

/// Where a durable periodic job's series stands, in wall-clock instants, and the period arithmetic on it.
///
/// Pure: every instant it needs is passed in. The anchor is the beginning of the current period (or of one
/// before it whose skipped successors are counted in ``counts``).
struct DurableSeries: Sendable, Equatable {
    let period: SyncJobPeriod
    /// The beginning of the current period (or of one before it, if the scheduler skipped some since: their
    /// skips are counted in ``counts``).
    var anchor: Date
    var counts: SyncJobInfo.Periods

    /// The series of a stored periodic job (`nil` for a job without a period): it goes on from its last
    /// `periodEnded` record, or begins when the job became eligible; with `now`, every period whose window
    /// closed by then is skipped and counted (as the scheduler would have), so the series stands at the
    /// period open at `now`.
    init?(of stored: StoredJob, now: Date? = nil) {
        guard let period = stored.options.period else { return nil }
        self.period = period
        anchor = stored.periodAnchor ?? stored.eligibleAt ?? stored.submittedAt
        counts = stored.periods ?? SyncJobInfo.Periods(succeeded: 0, failed: 0, skipped: 0)
        let interval = period.interval.inSeconds
        if let now, interval > 0, anchor.addingTimeInterval(interval) <= now {
            // Rounding may put the quotient one off; a few corrections at most (a bounded loop, whatever
            // the interval's size).
            var missed = min((now.timeIntervalSince(anchor) / interval).rounded(.down), 1e15)
            for _ in 0..<2 where anchor.addingTimeInterval(interval * (missed + 1)) <= now { missed += 1 }
            for _ in 0..<2 where missed > 0 && anchor.addingTimeInterval(interval * missed) > now { missed -= 1 }
            anchor = anchor.addingTimeInterval(interval * missed)
            counts.skipped += Int(missed)
        }
    }

    /// The beginning of the period the series goes on from after a period ended with `counts`: periods
    /// follow each other back to back, so it is one interval after the anchor per period that ended since
    /// (ran or skipped).
    func nextAnchor(counts: SyncJobInfo.Periods) -> Date {
        let ran = max(counts.succeeded + counts.failed - self.counts.succeeded - self.counts.failed, 0)
        let skipped = max(counts.skipped - self.counts.skipped, 0)
        return anchor.addingTimeInterval(period.interval.inSeconds * Double(ran + skipped))
    }
}
