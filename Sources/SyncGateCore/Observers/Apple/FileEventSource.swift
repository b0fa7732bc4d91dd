/// The seam under ``FileTreeWatcher``: one change notification per file-system object (a dispatch
/// file-system object source on Apple platforms), and the two reads of the tree the watcher needs.
///
/// A notification says only that the object changed, not which entry of a directory: a directory's
/// notification comes when an entry is created, deleted or renamed in it, or when the directory itself is
/// deleted, renamed or revoked. The Apple conformance (`Sources/SyncGateApple/DispatchFileEventSource.swift`)
/// is a few lines; tests use a fake tree whose notifications they send by hand.
package protocol FileEventSource: Sendable {
    /// Starts notifying `onEvent` of changes of the one object at `path` (never of what is under it),
    /// from any thread, until the returned watch is cancelled.
    ///
    /// - Throws: an error naming `path`: ``SyncFileWatchError/Reason/missing`` when nothing is there,
    ///   ``SyncFileWatchError/Reason/system(errno:)`` when the system refuses.
    func watchObject(
        at path: String, onEvent: @escaping @Sendable () -> Void
    ) throws(SyncFileWatchError) -> any FileWatchCancelling

    /// What is at `path` now, a final symbolic link followed (as for a watch's root: a link to a
    /// directory is watched as that directory's tree).
    func kind(of path: String) -> FileObjectKind

    /// The paths of the subdirectories of the directory at `path` (symbolic links not followed); none
    /// when it cannot be read.
    func subdirectories(of path: String) -> [String]
}
