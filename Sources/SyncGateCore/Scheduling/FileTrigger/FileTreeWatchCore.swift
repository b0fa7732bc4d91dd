/// The core of a tree watcher: what `InotifyWatcher.Core` (Linux) and ``FileTreeWatcher`` (Apple) do
/// alike — a watch is all or nothing, a directory is watched as a tree, a file through its parent by name
/// — on top of what they do differently, which is how one path is read and one directory watched.
package protocol FileTreeWatchCore: AnyObject, Sendable {
    /// Records a new watch of `paths`, leaving out of its trees the directories `exclusion` excludes, and
    /// returns its identifier.
    func register(paths: [String], exclusion: FileTreeExclusion, onChange: @escaping @Sendable () -> Void) -> UInt64
    /// Whether watch `id` leaves the directory at `path` (and everything under it) unwatched: its
    /// ``FileTreeExclusion`` excludes it. `false` once the watch has ended.
    func isExcluded(_ path: String, from id: UInt64) -> Bool
    /// What the root `path` of a watch is.
    ///
    /// - Throws: an error naming `path` when it is missing or cannot be read.
    func kind(ofRoot path: String) throws(SyncFileWatchError) -> FileObjectKind
    /// Adds (or joins) the watch of one directory for watch `id`: for the whole directory (`names` `nil`),
    /// or for the named files in it. Returns `false` when the directory vanished meanwhile (only when it
    /// is not a root) or the watch has ended.
    @discardableResult
    func addDirectory(
        _ path: String, id: UInt64, names: Set<String>?, isRoot: Bool
    ) throws(SyncFileWatchError) -> Bool
    /// The subdirectories of the directory at `path` (symbolic links not followed); none when it cannot
    /// be read.
    func subdirectories(of path: String) -> [String]
    /// Ends watch `id`, removing what it added (and what it had started to add); calling it again does
    /// nothing.
    func remove(_ id: UInt64)
    /// Watches, for watch `id`, the entries of the symbolic links that its root `path` goes through (the
    /// link `path` names, and the links that link leads to), each in its directory by name, so that a
    /// link made to point elsewhere counts as a change and the root can be watched again at its new
    /// target; returns the path of the object the links lead to (`path` itself when it is no link). A
    /// link whose directory cannot be watched is skipped. The default follows nothing and returns `path`.
    func watchLinks(ofRoot path: String, id: UInt64) -> String
}

extension FileTreeWatchCore {
    /// Follows nothing: `path`; see ``FileTreeWatchCore/watchLinks(ofRoot:id:)``.
    package func watchLinks(ofRoot path: String, id: UInt64) -> String { path }
}

extension FileTreeWatchCore {
    /// Starts a watch, all or nothing: every root is added, or, on the first failure, the watch is removed
    /// and the error (which names the path) is thrown. Cancelling the result removes the watch. The
    /// directories under the roots that are, or lie under, a path of `ignoring` are not watched, nor is
    /// anything under them, then or later (``FileTreeExclusion``); the roots always are.
    package func startWatch(
        paths: [String], ignoring: [String] = [], onChange: @escaping @Sendable () -> Void
    ) throws(SyncFileWatchError) -> any FileWatchCancelling {
        let id = register(
            paths: paths, exclusion: FileTreeExclusion(roots: paths, ignored: ignoring), onChange: onChange)
        do {
            for path in paths { try add(path, id: id) }
        } catch {
            remove(id)
            throw error
        }
        return FileTreeWatchCancellation { [self] in remove(id) }
    }

    /// Watches one root of watch `id`: the symbolic links it goes through (``watchLinks(ofRoot:id:)``),
    /// then a directory as a tree (spelled as the root), anything else through the parent of what the
    /// links lead to, by name.
    func add(_ path: String, id: UInt64) throws(SyncFileWatchError) {
        let target = watchLinks(ofRoot: path, id: id)
        if try kind(ofRoot: path) == .directory {
            try addTree(path, id: id, isRoot: true)
        } else {
            let (parent, name) = Self.split(target)
            try addDirectory(parent, id: id, names: [name], isRoot: true)
        }
    }

    /// Watches `root` and every directory under it for watch `id`, except those the watch excludes
    /// (``isExcluded(_:from:)``: `root` itself too, unless it is a root of the watch) and everything under
    /// them. Directories that vanish while they are scanned are skipped (nothing under them is walked);
    /// only a root must exist.
    func addTree(_ root: String, id: UInt64, isRoot: Bool) throws(SyncFileWatchError) {
        var pending = [(root, isRoot)]
        while let (path, mustExist) = pending.popLast() {
            guard !isExcluded(path, from: id) else { continue }
            guard try addDirectory(path, id: id, names: nil, isRoot: mustExist) else { continue }
            for child in subdirectories(of: path) { pending.append((child, false)) }
        }
    }

    /// Watches the parent of a root directory of watch `id` that is gone, for the root's name, so that a
    /// directory made there again can be watched as the root (``addReturned(_:id:)``, which the watcher
    /// calls when its parent's notification shows the name); if one is there already, it is watched at
    /// once. A parent that cannot be watched is logged: the root's changes are not seen from then on.
    func watchForReturn(of root: String, id: UInt64) {
        let (parent, name) = Self.split(root)
        do {
            guard try addDirectory(parent, id: id, names: [name], isRoot: false) else {
                SyncGateLog.log(
                    .error, "file trigger: \(root) is gone, and so is \(parent); changes there are not seen")
                return
            }
        } catch {
            SyncGateLog.log(.error, "file trigger: \(root) is gone and \(error); changes there are not seen")
            return
        }
        if (try? kind(ofRoot: root)) == .directory { addReturned(root, id: id) }
    }

    /// Watches a root directory of watch `id` that appeared again, as a tree; a failure is logged.
    func addReturned(_ root: String, id: UInt64) {
        do {
            try addTree(root, id: id, isRoot: true)
        } catch {
            SyncGateLog.log(.error, "file trigger: \(error); changes under it are not seen")
        }
    }

    /// What a watch uses a directory for once it joins it for `names` (`nil`: the whole directory, as part
    /// of a tree), given what it used it for before (`existing`: `nil` when it did not use it): the whole
    /// directory wins over named files (a tree and a file in its root, in one watch), named files add up.
    static func joined(_ existing: Set<String>??, _ names: Set<String>?) -> Set<String>? {
        switch existing {
        case .none: names
        case .some(.none): nil
        case .some(.some(let existingNames)): names.map { existingNames.union($0) }
        }
    }

    /// Whether `path` is `root` or lies under it.
    static func isInTree(_ path: String, at root: String) -> Bool {
        FileTreeExclusion.isInTree(path, at: root)
    }

    /// The path of the entry `name` in `directory`: the inverse of ``split(_:)``.
    static func path(of name: String, in directory: String) -> String {
        directory == "/" ? "/" + name : directory + "/" + name
    }

    /// The parent directory and the last component of `path` (`.` for a path without a slash), split at
    /// the last `/` byte (as characters, a `/` followed by a combining mark is not a `/`).
    static func split(_ path: String) -> (parent: String, name: String) {
        let bytes = path.utf8
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return (".", path) }
        let parent = String(decoding: bytes[..<slash], as: UTF8.self)
        return (parent.isEmpty ? "/" : parent, String(decoding: bytes[bytes.index(after: slash)...], as: UTF8.self))
    }
}

/// A watch started by ``FileTreeWatchCore/startWatch(paths:ignoring:onChange:)``: cancelling it removes the watch.
private struct FileTreeWatchCancellation: FileWatchCancelling {
    let remove: @Sendable () -> Void

    func cancel() { remove() }
}
