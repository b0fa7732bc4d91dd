import SyncGateCore

#if canImport(Foundation) && (os(macOS) || os(iOS) || os(tvOS) || os(watchOS) || os(visionOS) || SYNCGATE_APPLE_STUBS)
    /// The file watcher of Apple platforms (iOS, iPadOS, macOS, tvOS, watchOS, visionOS): a dispatch
    /// file-system object source per watched directory, one serial queue and one set of sources per
    /// process, shared by every scheduler. Pass it to the scheduler:
    /// `SyncScheduler(environment: environment, fileWatcher: AppleFileWatcher())`.
    ///
    /// A directory is watched with every directory under it; directories that appear are watched, those
    /// that go are dropped; a file is watched through its parent directory, so a change counts when an
    /// entry of a watched directory is created, deleted or renamed (an editor's save by rename included).
    /// A write into an existing file in place changes no directory and is not seen. Each watched directory
    /// holds one file descriptor while it is watched.
    public struct AppleFileWatcher: FileChangeWatching {
        private static let shared = FileTreeWatcher(source: DispatchFileEventSource())

        /// Creates the watcher (every instance shares the process's sources).
        public init() {}

        /// Starts a watch; see ``FileChangeWatching/watch(paths:onChange:)``.
        public func watch(
            paths: [String], onChange: @escaping @Sendable () -> Void
        ) throws(SyncFileWatchError) -> any FileWatchCancelling {
            try Self.shared.watch(paths: paths, onChange: onChange)
        }
    }
#endif
