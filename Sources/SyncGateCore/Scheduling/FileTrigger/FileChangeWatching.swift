/// Watches files for a scheduler's file-triggered jobs (``SyncFileTrigger``): the seam between the
/// pure scheduler and the operating system's file notifications.
///
/// ``SyncScheduler`` starts one watch per file-triggered job when the job is submitted, and cancels it
/// when the job ends. On Linux the default is ``SystemFileWatcher`` (inotify); on Apple platforms apps
/// pass `AppleFileWatcher()` (dispatch file-system sources, in SyncGateApple); tests inject
/// `ManualFileWatcher` from SyncGateTesting.
public protocol FileChangeWatching: Sendable {
    /// Starts watching `paths` (each a directory, watched with everything under it, or a file) and
    /// calls `onChange` after changes, from any thread, possibly once for several changes, never while
    /// the caller holds a lock of the scheduler's. A lost notification (the system's queue overflowed)
    /// counts as a change.
    ///
    /// Either every path is watched or none is: on failure the watches already made are removed and the
    /// error names the path.
    func watch(
        paths: [String], onChange: @escaping @Sendable () -> Void
    ) throws(SyncFileWatchError) -> any FileWatchCancelling
}

/// A running watch of ``FileChangeWatching``: cancel it to stop the notifications.
public protocol FileWatchCancelling: Sendable {
    /// Stops the watch: no change made after this returns is reported (a call of `onChange` already
    /// under way may still end after it). Calling it again does nothing.
    func cancel()
}

/// Why a path could not be watched; the description is one line naming the path.
public struct SyncFileWatchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Sendable, Hashable {
        /// The path does not exist.
        case missing
        /// The system's limit of watches was reached; `limit` names the setting that raises it (on
        /// Linux `/proc/sys/fs/inotify/max_user_watches`).
        case watchLimitReached(limit: String)
        /// The system refused with this error number.
        case system(errno: Int32)
        /// ``SystemFileWatcher`` has no file watcher on this platform; on Apple platforms the scheduler
        /// takes `AppleFileWatcher` (SyncGateApple) instead.
        case unsupported
    }

    /// The path that could not be watched.
    public var path: String
    /// What went wrong.
    public var reason: Reason

    /// Creates an error.
    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    /// A line such as `cannot watch /data/photos: the limit of inotify watches is reached (raise
    /// /proc/sys/fs/inotify/max_user_watches)`.
    public var description: String {
        switch reason {
        case .missing: "cannot watch \(path): no such file or directory"
        case .watchLimitReached(let limit):
            "cannot watch \(path): the limit of file watches is reached (raise \(limit))"
        case .system(let code): "cannot watch \(path): \(SystemErrorText.described(code))"
        case .unsupported:
            "cannot watch \(path): SystemFileWatcher has no file watcher on this platform (on Apple platforms, "
                + "create the scheduler with fileWatcher: AppleFileWatcher())"
        }
    }
}

/// The platform's file watcher: inotify on Linux (one watch thread per process, shared by every
/// scheduler), none elsewhere: every watch fails with ``SyncFileWatchError/Reason/unsupported``, whose
/// message says what to pass instead. On Apple platforms, create the scheduler with
/// `fileWatcher: AppleFileWatcher()` (SyncGateApple, re-exported by SyncGate), which SyncGateCore cannot
/// reach to make it this default.
public struct SystemFileWatcher: FileChangeWatching {
    /// Creates the platform's watcher.
    public init() {}

    /// Starts a watch; see ``FileChangeWatching/watch(paths:onChange:)``.
    public func watch(
        paths: [String], onChange: @escaping @Sendable () -> Void
    ) throws(SyncFileWatchError) -> any FileWatchCancelling {
        #if os(Linux)
            guard let shared = InotifyWatcher.shared else {
                throw SyncFileWatchError(path: paths.first ?? "", reason: .system(errno: InotifyWatcher.initError))
            }
            return try shared.watch(paths: paths, onChange: onChange)
        #else
            throw SyncFileWatchError(path: paths.first ?? "", reason: .unsupported)
        #endif
    }
}
