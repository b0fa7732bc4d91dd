/// The daemon's timer that compacts its journal without waiting for a submit.
///
/// The durable store compacts its journal when a job is submitted and dead records outweigh live ones;
/// a daemon whose only work is a periodic job receives no submits, so each run's records would pile up.
/// Every ``interval`` of its clock, the compactor calls its `compact` closure (the store's
/// `compactIfNeeded()`, which rewrites the journal only when dead records outweigh live ones), and
/// reports a failure through `log`; it stops when its task is cancelled.
struct JournalCompactor<C: Clock>: Sendable where C.Duration == Duration {
    /// The daemon's interval: ten minutes, ten runs of the shortest period.
    static var daemonInterval: Duration { .seconds(600) }

    /// The clock the interval is measured on.
    let clock: C
    /// The time between two checks.
    let interval: Duration
    /// Compacts the journal if it needs it.
    let compact: @Sendable () throws -> Void
    /// Reports a failure to compact.
    let log: @Sendable (String) -> Void

    /// Checks every ``interval`` until the calling task is cancelled.
    func run() async {
        var next = clock.now.advanced(by: interval)
        while true {
            do {
                try await clock.sleep(until: next, tolerance: nil)
            } catch {
                return
            }
            do {
                try compact()
            } catch {
                log("cannot compact the journal: \(error)")
            }
            next = next.advanced(by: interval)
        }
    }
}
