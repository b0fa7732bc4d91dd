import Foundation

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

    /// Whether anything this watcher would watch under `paths` changed after `instant`, from the files'
    /// change times: what a restored file-triggered job (SyncGateDurable) checks for the changes made
    /// while no process watched. A path that is missing or cannot be read counts as changed.
    ///
    /// The default reads the whole trees of `paths` (symbolic links not followed, but for a path that is
    /// one: it is read at its target, and its own times count too); a watcher that leaves
    /// some directories out of its watches leaves them out here too (``SystemFileWatcher/init(ignoring:)``).
    func changed(under paths: [String], since instant: Date) -> Bool
}

extension FileChangeWatching {
    /// Whether anything under `paths` (the whole trees, symbolic links under them not followed) changed
    /// after `instant`; see ``FileChangeWatching/changed(under:since:)``.
    public func changed(under paths: [String], since instant: Date) -> Bool {
        FileTreeStamp.changed(under: paths, since: instant)
    }
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
///
/// A watcher may leave directories out of every watch it starts (``init(ignoring:)``), such as the
/// directory where a program keeps its own state, so that its own writes there never count as changes.
public struct SystemFileWatcher: FileChangeWatching {
    /// The absolute directory paths whose subtrees no watch of this watcher covers.
    public let ignoredPaths: [String]

    /// Creates the platform's watcher, leaving nothing out.
    public init() {
        self.init(ignoring: [])
    }

    /// Creates the platform's watcher.
    ///
    /// - Parameter ignoring: absolute directory paths whose subtrees no watch covers: a directory found
    ///   under a watched path that is, or lies under, one of them is not watched, nor is anything under
    ///   it (also when it appears later), so changes there never call `onChange`, and
    ///   ``changed(under:since:)`` does not read it. The entry of such a directory in its parent is
    ///   watched as any other entry (its creation, deletion or rename counts). A watch's paths themselves
    ///   are always watched as given, with their whole trees when they are, or lie under, an ignored
    ///   path. Paths are compared as text, component by component, without resolving symbolic links:
    ///   give them as the watched paths spell them.
    public init(ignoring: [String]) {
        self.ignoredPaths = ignoring
    }

    /// Starts a watch; see ``FileChangeWatching/watch(paths:onChange:)``.
    public func watch(
        paths: [String], onChange: @escaping @Sendable () -> Void
    ) throws(SyncFileWatchError) -> any FileWatchCancelling {
        #if os(Linux)
            guard let shared = InotifyWatcher.shared else {
                throw SyncFileWatchError(path: paths.first ?? "", reason: .system(errno: InotifyWatcher.initError))
            }
            return try shared.watch(paths: paths, ignoring: ignoredPaths, onChange: onChange)
        #else
            throw SyncFileWatchError(path: paths.first ?? "", reason: .unsupported)
        #endif
    }

    /// Whether anything under `paths` changed after `instant`, leaving out the ignored directories as the
    /// watches do; see ``FileChangeWatching/changed(under:since:)``.
    public func changed(under paths: [String], since instant: Date) -> Bool {
        FileTreeStamp.changed(under: paths, since: instant, ignoring: ignoredPaths)
    }
}
