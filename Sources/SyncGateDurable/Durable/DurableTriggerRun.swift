import Foundation
import SyncGateCore

/// Where an active file-triggered durable job's series stands, in wall-clock instants: its counts and
/// when its current run started. The run's start becomes the anchor of its `periodEnded` record, which a
/// restore compares the files' change times with (the scheduler's file watcher's
/// `FileChangeWatching.changed(under:since:)`).
struct DurableTriggerRun: Sendable, Equatable {
    var counts: SyncJobInfo.Periods
    /// When the current run's first attempt started; `nil` while no run is in progress.
    var runStartedAt: Date?

    /// The series of a stored file-triggered job; `nil` for a job without a file trigger.
    init?(of stored: StoredJob) {
        guard stored.options.fileTrigger != nil else { return nil }
        counts = stored.periods ?? SyncJobInfo.Periods(succeeded: 0, failed: 0, skipped: 0)
    }
}
