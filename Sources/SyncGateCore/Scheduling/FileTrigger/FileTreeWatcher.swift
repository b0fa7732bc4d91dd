/// A ``FileChangeWatching`` over a ``FileEventSource`` that notifies per object: the platform-neutral
/// watcher behind `AppleFileWatcher` (SyncGateApple), with the semantics of the Linux watcher.
///
/// A directory is watched as a tree: every directory under it gets a notification of its own. When a
/// directory's notification comes, the directory is read again: subdirectories that appeared are watched
/// (with everything under them), those gone are dropped (with everything under them), and a directory
/// that is itself gone is dropped; when it was a root of a watch, its parent is watched for its name, and
/// a directory of that name appearing there is watched as the root again. A file is watched through its
/// parent directory, by name, so replacing it (an editor's save by rename) counts; since a notification
/// does not say which entry changed, any change of the parent's entries counts as a change of the file.
///
/// Each notification calls `onChange` once per watch it concerns, outside the lock, after the directories
/// that appeared are watched. Several watches share the notification of a directory they both watch; it
/// is cancelled when the last of them ends. A new watch is all or nothing: if any directory of any of its
/// paths cannot be watched (a root missing, the system refusing), what it had added is removed and the
/// error names that path; a subdirectory that vanishes while it is scanned is skipped.
package final class FileTreeWatcher: FileChangeWatching, FileTreeWatchCore {
    /// One watched object and the watches that use it: as part of a tree (`nil`), or for the named files.
    private struct Object {
        var watch: any FileWatchCancelling
        var users: [UInt64: Set<String>?] = [:]
    }

    private struct Watch {
        var onChange: @Sendable () -> Void
        /// The paths the watch was started with.
        var roots: Set<String> = []
        /// The directories left out of its trees.
        var exclusion = FileTreeExclusion(roots: [], ignored: [])
        var paths: Set<String> = []
    }

    private struct State {
        var objects: [String: Object] = [:]
        var watches: [UInt64: Watch] = [:]
        var nextID: UInt64 = 0
    }

    private let source: any FileEventSource
    private let state = LockedState(State())

    /// Creates a watcher whose notifications come from `source`.
    package init(source: any FileEventSource) {
        self.source = source
    }

    /// The paths whose objects are watched now, sorted.
    package var watchedPaths: [String] { state.withLock { $0.objects.keys.sorted() } }

    /// Starts a watch; see ``FileChangeWatching/watch(paths:onChange:)``.
    package func watch(
        paths: [String], onChange: @escaping @Sendable () -> Void
    ) throws(SyncFileWatchError) -> any FileWatchCancelling {
        try startWatch(paths: paths, onChange: onChange)
    }

    /// Starts a watch that leaves out the directories under `paths` that are, or lie under, a path of
    /// `ignoring`, and everything under them, including those that appear later (``FileTreeExclusion``);
    /// the roots are always watched.
    package func watch(
        paths: [String], ignoring: [String], onChange: @escaping @Sendable () -> Void
    ) throws(SyncFileWatchError) -> any FileWatchCancelling {
        try startWatch(paths: paths, ignoring: ignoring, onChange: onChange)
    }

    package func register(
        paths: [String], exclusion: FileTreeExclusion, onChange: @escaping @Sendable () -> Void
    ) -> UInt64 {
        state.withLock { state in
            state.nextID += 1
            state.watches[state.nextID] = Watch(onChange: onChange, roots: Set(paths), exclusion: exclusion)
            return state.nextID
        }
    }

    package func isExcluded(_ path: String, from id: UInt64) -> Bool {
        state.withLock { state in state.watches[id]?.exclusion.excludes(path) ?? false }
    }

    package func kind(ofRoot path: String) throws(SyncFileWatchError) -> FileObjectKind {
        let kind = source.kind(of: path)
        guard kind != .missing else { throw SyncFileWatchError(path: path, reason: .missing) }
        return kind
    }

    package func subdirectories(of path: String) -> [String] { source.subdirectories(of: path) }

    package func addDirectory(
        _ path: String, id: UInt64, names: Set<String>?, isRoot: Bool
    ) throws(SyncFileWatchError) -> Bool {
        let joined = state.withLock { state -> Bool? in
            guard state.watches[id] != nil else { return nil }
            guard state.objects[path] != nil else { return false }
            Self.join(&state, path: path, id: id, names: names)
            return true
        }
        guard let joined else { return false }
        if joined { return true }
        let made: any FileWatchCancelling
        do {
            made = try source.watchObject(at: path) { [weak self] in self?.objectChanged(path) }
        } catch {
            if case .missing = error.reason, !isRoot { return false }
            throw error
        }
        let (kept, added) = state.withLock { state -> (Bool, Bool) in
            guard state.watches[id] != nil else { return (false, false) }
            if state.objects[path] != nil {
                Self.join(&state, path: path, id: id, names: names)
                return (false, true)
            }
            state.objects[path] = Object(watch: made)
            Self.join(&state, path: path, id: id, names: names)
            return (true, true)
        }
        if !kept { made.cancel() }
        return added
    }

    /// Adds watch `id` to the users of the object at `path` (see ``FileTreeWatchCore/joined(_:_:)``).
    private static func join(_ state: inout State, path: String, id: UInt64, names: Set<String>?) {
        guard var object = state.objects[path] else { return }
        object.users[id] = .some(Self.joined(object.users[id], names))
        state.objects[path] = object
        state.watches[id]?.paths.insert(path)
    }

    /// Ends watch `id`: the objects no other watch uses are no longer watched.
    package func remove(_ id: UInt64) {
        let ended = state.withLock { state -> [any FileWatchCancelling] in
            guard let watch = state.watches.removeValue(forKey: id) else { return [] }
            var ended: [any FileWatchCancelling] = []
            for path in watch.paths {
                state.objects[path]?.users[id] = nil
                if let object = state.objects[path], object.users.isEmpty {
                    state.objects[path] = nil
                    ended.append(object.watch)
                }
            }
            return ended
        }
        for watch in ended { watch.cancel() }
    }

    /// Handles the notification of the object at `path`: reads the directory again for the trees that
    /// hold it, then calls the watches it concerns.
    private func objectChanged(_ path: String) {
        let users = state.withLock { $0.objects[path]?.users } ?? [:]
        guard !users.isEmpty else { return }
        let trees = users.filter { $0.value == nil }.keys.sorted()
        if source.kind(of: path) != .directory {
            drop(under: path, ids: nil)
            let lost = state.withLock { state in trees.filter { state.watches[$0]?.roots.contains(path) == true } }
            for id in lost { watchForReturn(of: path, id: id) }
        } else if !trees.isEmpty {
            let present = Set(source.subdirectories(of: path))
            let watched = state.withLock { state in
                state.objects.filter { Self.parent(of: $0.key) == path }.map { ($0.key, Set($0.value.users.keys)) }
            }
            for id in trees {
                for (child, childUsers) in watched where childUsers.contains(id) && !present.contains(child) {
                    drop(under: child, ids: [id])
                }
                for child in present.sorted() where !watched.contains(where: { $0.0 == child && $0.1.contains(id) }) {
                    addLater(child, id: id)
                }
            }
        }
        if users.values.contains(where: { $0 != nil }) { returnRoots(in: path, users: users) }
        let callbacks = state.withLock { state in users.keys.sorted().compactMap { state.watches[$0]?.onChange } }
        for onChange in callbacks { onChange() }
    }

    /// Watches again, as trees, the roots of the watches that use the directory at `path` by name, when a
    /// directory of a root's name is there and not watched for that watch.
    private func returnRoots(in path: String, users: [UInt64: Set<String>?]) {
        for (id, names) in users.sorted(by: { $0.key < $1.key }) {
            guard let names else { continue }
            for name in names.sorted() {
                let root = Self.path(of: name, in: path)
                let returned = state.withLock { state in
                    state.watches[id]?.roots.contains(root) == true && state.objects[root]?.users[id] == nil
                }
                if returned && source.kind(of: root) == .directory { addReturned(root, id: id) }
            }
        }
    }

    /// Watches a tree that appeared after its watch began; a failure is logged (the change is reported
    /// anyway).
    private func addLater(_ path: String, id: UInt64) {
        do {
            try addTree(path, id: id, isRoot: false)
        } catch {
            SyncGateLog.log(.error, "file trigger: \(error); changes under it are not seen")
        }
    }

    /// Stops watching `root` and everything under it for the watches `ids` (every watch when `nil`).
    private func drop(under root: String, ids: Set<UInt64>?) {
        let ended = state.withLock { state -> [any FileWatchCancelling] in
            var ended: [any FileWatchCancelling] = []
            for (path, var object) in state.objects where Self.isInTree(path, at: root) {
                for id in object.users.keys where ids?.contains(id) ?? true {
                    object.users[id] = nil
                    state.watches[id]?.paths.remove(path)
                }
                if object.users.isEmpty {
                    state.objects[path] = nil
                    ended.append(object.watch)
                } else {
                    state.objects[path] = object
                }
            }
            return ended
        }
        for watch in ended { watch.cancel() }
    }

    private static func parent(of path: String) -> String? {
        path == "/" || !path.contains("/") ? nil : Self.split(path).parent
    }
}
