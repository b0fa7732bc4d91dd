import Foundation
import SyncGate

/// A wall clock a test sets by hand.
final class ManualWallClock: Sendable {
    private let current = LockedState(Date(timeIntervalSince1970: 1_700_000_000))

    var now: Date { current.withLock { $0 } }
    var function: @Sendable () -> Date { { [self] in now } }

    func advance(by seconds: Double) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}

/// A stored job with every option set to something other than its default.
func fullyOptionedJob(sequence: UInt64 = 7) -> StoredJob {
    var job = StoredJob(
        sequence: sequence, id: "upload-\(sequence)", kind: "upload", payload: Data("{\"photo\":42}".utf8),
        submittedAt: Date(timeIntervalSince1970: 1_700_000_000.25),
        options: SyncJobOptions(
            requires: .largeTransfer, conditions: ["photos-selected", "db-migrated"], priority: .high,
            delay: .milliseconds(9750), startDeadline: .milliseconds(599_750), runTimeout: .milliseconds(1500),
            retry: .exponential(
                initial: .seconds(2), multiplier: 3, maxDelay: .seconds(60), maxAttempts: 4, jitter: 0.25,
                resetWhenRequirementsReturn: true),
            onRequirementsLost: .keepRunning, uniqueKey: "photo-42", onDuplicate: .replace, serialGroup: "uploads",
            tags: ["photos", "user"]))
    job.failures = 2
    job.lastStartedAttempt = 3
    job.isRunning = true
    job.retryAt = Date(timeIntervalSince1970: 1_700_000_100.5)
    return job
}

/// A minimal stored job.
func plainJob(_ sequence: UInt64, id: String? = nil, options: SyncJobOptions = SyncJobOptions()) -> StoredJob {
    StoredJob(
        sequence: sequence, id: id ?? "job-\(sequence)", kind: "work", payload: Data("{}".utf8),
        submittedAt: Date(timeIntervalSince1970: 1_700_000_000), options: options)
}

/// The counts of the next `periodEnded` event on `events` (its journal record is written before it is
/// sent); `nil` when the stream ends first.
func nextPeriodEnd(_ events: AsyncStream<SyncSchedulerEvent>) async -> SyncJobInfo.Periods? {
    for await event in events {
        if case .periodEnded(_, let periods) = event { return periods }
    }
    return nil
}
