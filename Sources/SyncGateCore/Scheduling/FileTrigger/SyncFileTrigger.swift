/// Makes a job run when files change: after a change under one of its paths, once the changes have been
/// quiet for ``quietPeriod``, and then only when its requirements hold. Set as
/// ``SyncJobOptions/fileTrigger``.
///
/// ```swift
/// var options = SyncJobOptions(requires: .unmetered)
/// options.fileTrigger = SyncFileTrigger(paths: ["/home/me/Documents"], quietPeriod: .seconds(5))
/// let job = SyncJob(options: options) { _ in try await syncDocuments() }
/// ```
///
/// The job is a series, like a periodic job: it runs until it is cancelled. Its rules:
/// * it waits for a change; a change starts the quiet period, and each further change restarts it;
/// * when the quiet period ends, the run waits for the requirements as any job does (changes then are
///   covered by that run);
/// * changes while a run is in progress cause exactly one more run after it (with its own quiet period,
///   which starts when the run ends), never one per change. One save is often several changes (making
///   a file, then closing it): with a zero quiet period the first can start a run and the rest make the
///   one more run, so a quiet period longer than a save gives one run per save;
/// * a failed run is retried by the job's ``RetryPolicy``; the series goes on after the last attempt.
///
/// A path is a directory (watched with everything under it, subdirectories created later included) or a
/// file. A directory path that is deleted or moved away is watched for in its parent (a moved directory
/// is not followed to its new place), and watched again as soon as a directory of its name appears
/// there; the going and the return each count as a change. A subdirectory moved out of the directory
/// is no longer watched, and one moved within it is watched at its new place. On Linux, a path that is
/// a symbolic link (or a chain of them) is watched at its target; making a link of the path point
/// elsewhere (replacing it, or removing it and making it again) counts as a change, and from then on the
/// new target is watched and the old one is not. On Linux, a file system
/// mounted over a watched directory (the path itself, or one under it) is watched from then on, and
/// mounting and unmounting it each count as a change. The
/// scheduler's ``FileChangeWatching`` watches them from the moment the job is submitted; when it cannot
/// (a path is missing, the system's limit of watches is reached) the submission fails with
/// ``SyncSchedulerError/invalidJob(_:)`` naming `fileTrigger.paths` and the path. Not combinable with
/// ``SyncJobOptions/period`` or ``SyncJobOptions/calendar``.
public struct SyncFileTrigger: Sendable, Hashable {
    /// The directories and files whose changes trigger the job; absolute paths are safest (a relative
    /// one is taken from the process's working directory when the watch starts).
    public var paths: [String]
    /// How long the changes must have been quiet before a run waits for its requirements.
    public var quietPeriod: Duration

    /// Creates a trigger.
    ///
    /// - Parameters:
    ///   - paths: the directories and files to watch; at least one, none empty.
    ///   - quietPeriod: how long changes must have stopped before a run; not negative.
    public init(paths: [String], quietPeriod: Duration) {
        self.paths = paths
        self.quietPeriod = quietPeriod
    }

    /// The first problem with the trigger, naming the field and its value, or `nil` when it is valid.
    var validationError: SyncJobRefusal? {
        if paths.isEmpty { return .option("fileTrigger.paths", "[]", "fileTrigger.paths must not be empty") }
        if paths.contains("") {
            return .option("fileTrigger.paths", "\"\"", "fileTrigger.paths must not contain an empty path")
        }
        if quietPeriod < .zero {
            return .option(
                "fileTrigger.quietPeriod", "\(quietPeriod)",
                "fileTrigger.quietPeriod must not be negative, got \(quietPeriod)")
        }
        return nil
    }

    /// Where a file-triggered job stands, as ``SyncJobInfo`` and ``SyncSchedulerSnapshot`` show it.
    public enum Wait: Sendable, Hashable, CustomStringConvertible {
        /// Waiting for a change under its paths.
        case change
        /// A change came: waiting for the changes to be quiet until the given offset of the scheduler's
        /// clock (a further change moves it).
        case quiet(until: Duration)

        /// `waiting for a change` or `waiting for quiet until <offset>`.
        public var description: String {
            switch self {
            case .change: "waiting for a change"
            case .quiet(let until): "waiting for quiet until \(until)"
            }
        }
    }

    /// Where a restored file-triggered job's series continues (set by the durable layer only).
    package struct Resume: Sendable, Hashable {
        /// The series' counts so far.
        package var counts: SyncJobInfo.Periods
        /// Whether a change is pending: the files changed while no process watched them (or during the
        /// run that was in progress), so the series begins with a quiet period rather than a wait.
        package var changed: Bool

        /// Creates a resume point.
        package init(counts: SyncJobInfo.Periods, changed: Bool) {
            self.counts = counts
            self.changed = changed
        }
    }
}
