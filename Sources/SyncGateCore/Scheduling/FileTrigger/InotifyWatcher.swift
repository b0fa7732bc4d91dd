#if os(Linux)
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #endif

    /// The Linux file watcher behind ``SystemFileWatcher``: one inotify instance and one thread
    /// (`syncgate-files`, a ``DedicatedThread``) for every watch of the process (``shared``).
    ///
    /// inotify is not recursive, so a directory is watched as a tree: every directory under it gets a
    /// watch, and a directory that appears (created, or moved in) is watched and scanned at once, so the
    /// directories created inside it before its watch was added are watched too. A file is watched
    /// through its parent directory, by name, so replacing it (an editor's save by rename) counts. A root
    /// directory that is deleted or moved away is then watched the same way, through its parent by name
    /// (a moved one is no longer followed at its new place), and watched as a tree again as soon as a
    /// directory of its name appears there. A subdirectory moved out of a tree is no longer watched, nor
    /// is anything under it; one moved within the tree is watched at its new path. A lost notification
    /// (`IN_Q_OVERFLOW`) counts as a change of every watch, and every tree is scanned again, since
    /// directories created meanwhile were not seen.
    ///
    /// A root that is a symbolic link is watched at its target (a directory as a tree spelled under the
    /// root's path, a file through the target's directory by name), and each link it goes through is
    /// watched in its directory by name: when one is replaced, removed or made, that counts as a change,
    /// what was watched through the old target is dropped, and the root is watched again at the new one
    /// (a link left pointing nowhere leaves the root unwatched until it points somewhere again). Only the
    /// links of the root's last component are followed so, not those of the directories above it.
    ///
    /// inotify watches inodes, so a file system mounted over a watched path, or over a directory in a
    /// watched tree, would hide what the watch sees there. The thread follows the mount table too
    /// (`/proc/self/mountinfo`, which the kernel marks on every mount and unmount): on a change, it reads
    /// the identity (device and inode) of every watched directory's path, and a path that now shows a
    /// directory it does not watch (a mount over it) is watched again, as a tree for a tree, and counts
    /// as a change of its watches. The covered directory stays watched, and is in view again when the
    /// file system is unmounted (which inotify reports itself). Only `stat` is called on paths that did
    /// not change, so a mount elsewhere costs no directory scan and holds no directory open.
    ///
    /// The thread blocks in `poll` on the inotify descriptor, the mount table and a stop pipe: it makes
    /// no wake-up while nothing changes. When the kernel's limit of watches is reached (`ENOSPC`), a new watch fails with
    /// ``SyncFileWatchError/Reason/watchLimitReached(limit:)`` naming `/proc/sys/fs/inotify/max_user_watches`,
    /// after removing what it had added; a directory appearing later that cannot be watched is logged as
    /// an error and reported as a change.
    package final class InotifyWatcher: Sendable {
        /// The process's watcher, started on first use; `nil` when the kernel refuses an inotify
        /// instance (``initError`` says why).
        package static let shared: InotifyWatcher? = try? InotifyWatcher()
        /// Why ``shared`` is `nil`: the error number of the failed `inotify_init1` (0 when it is not).
        package static var initError: Int32 { shared == nil ? lastInitError.withLock { $0 } : 0 }
        private static let lastInitError = LockedState<Int32>(0)

        /// The setting that limits the number of watches, named in the error when it is reached.
        package static let watchLimitSetting = "/proc/sys/fs/inotify/max_user_watches"

        /// The events that count as a change in a watched directory.
        static let directoryMask = UInt32(
            IN_CREATE | IN_DELETE | IN_MODIFY | IN_CLOSE_WRITE | IN_ATTRIB | IN_MOVED_FROM | IN_MOVED_TO
                | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)

        private let core: Core

        /// Creates an instance with its own inotify descriptor; with `startsReading` false, nothing reads
        /// it until ``startReading()`` (tests fill the kernel's queue that way).
        package init(startsReading: Bool = true) throws(SyncFileWatchError) {
            let descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
            guard descriptor >= 0 else {
                let code = errno
                Self.lastInitError.withLock { $0 = code }
                throw SyncFileWatchError(path: "", reason: .system(errno: code))
            }
            var pipeEnds: [Int32] = [-1, -1]
            guard pipe(&pipeEnds) == 0 else {
                let code = errno
                close(descriptor)
                throw SyncFileWatchError(path: "", reason: .system(errno: code))
            }
            for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            // Without the mount table (no /proc), mounts are not followed; everything else works.
            let mounts = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC)
            core = Core(descriptor: descriptor, stopRead: pipeEnds[0], stopWrite: pipeEnds[1], mounts: mounts)
            if startsReading { startReading() }
        }

        deinit {
            core.stop()
        }

        /// Starts the reading thread (once).
        package func startReading() {
            core.startReading()
        }

        /// Starts watching `paths`; see ``FileChangeWatching/watch(paths:onChange:)``. The directories
        /// under them that are, or lie under, a path of `ignoring` are not watched, nor is anything under
        /// them, including those that appear later (``FileTreeExclusion``); the roots always are.
        package func watch(
            paths: [String], ignoring: [String] = [], onChange: @escaping @Sendable () -> Void
        ) throws(SyncFileWatchError) -> any FileWatchCancelling {
            try core.startWatch(paths: paths, ignoring: ignoring, onChange: onChange)
        }

        /// How many notifications were lost to an overflow of the kernel's queue so far.
        package var overflowCount: Int { core.state.withLock { $0.overflows } }

        /// How many directories are watched now.
        package var watchedDirectoryCount: Int { core.state.withLock { $0.directories.count } }

        /// The paths of the directories watched now, sorted.
        package var watchedDirectoryPaths: [String] {
            core.state.withLock { $0.directories.values.map(\.path) }.sorted()
        }

        /// The watches and the thread, shared by the watcher and its thread.
        final class Core: FileTreeWatchCore {
            struct Directory {
                var path: String
                /// The watches that use it: as part of a tree (`nil`), or for the named files.
                var users: [UInt64: Set<String>?] = [:]
                /// The directory's device and inode when its watch was added; `nil` when unreadable.
                var identity: FileIdentity?
            }

            /// A directory's device and inode: what tells a directory from another mounted on its path.
            struct FileIdentity: Hashable {
                var device: UInt64
                var inode: UInt64

                /// The identity of what `path` names now (symbolic links followed, as inotify follows a
                /// root's); `nil` when it cannot be read.
                init?(of path: String) {
                    var information = stat()
                    guard SystemBytes.withCString(path, { stat($0, &information) }) == 0 else { return nil }
                    device = UInt64(information.st_dev)
                    inode = UInt64(information.st_ino)
                }
            }

            struct Watch {
                var roots: [String]
                /// The directories left out of its trees.
                var exclusion: FileTreeExclusion
                var onChange: @Sendable () -> Void
                var directories: Set<Int32> = []
                /// The symbolic links its roots go through, by the bytes of the link's path, and the root
                /// each belongs to (``watchLinks(ofRoot:id:)``).
                var links: [[UInt8]: String] = [:]
                /// For a root that goes through symbolic links (by the bytes of its path), the entries it
                /// watches by name: the links', and, for a file, the file's.
                var entries: [[UInt8]: Set<Entry>] = [:]
            }

            /// An entry watched by name: the directory's path and the name, compared byte for byte.
            struct Entry: Hashable {
                var directory: [UInt8]
                var name: [UInt8]

                init(_ path: String) {
                    let (directory, name) = Core.split(path)
                    self.directory = Array(directory.utf8)
                    self.name = Array(name.utf8)
                }
            }

            /// The most symbolic links followed from one root (the kernel's own limit, `MAXSYMLINKS`).
            static let maximumLinks = 40
            /// The events of a directory that show one of its entries replaced: a link made elsewhere.
            static let relinkMask = UInt32(IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO)

            struct State {
                var directories: [Int32: Directory] = [:]
                var watches: [UInt64: Watch] = [:]
                var nextID: UInt64 = 0
                var overflows = 0
                /// What each watched path showed when it was last watched or the mount table last changed:
                /// tells an unmount that shows a covered directory again from no change at all.
                var shownIdentities: [String: FileIdentity] = [:]
                var isReading = false
                var isStopped = false
            }

            let descriptor: Int32
            let stopRead: Int32
            let stopWrite: Int32
            /// `/proc/self/mountinfo`, polled for `POLLPRI` (the mount table changed); -1 when unavailable.
            let mounts: Int32
            let state = LockedState(State())

            init(descriptor: Int32, stopRead: Int32, stopWrite: Int32, mounts: Int32) {
                self.descriptor = descriptor
                self.stopRead = stopRead
                self.stopWrite = stopWrite
                self.mounts = mounts
            }

            func startReading() {
                let start = state.withLock { state in
                    defer { state.isReading = true }
                    return !state.isReading && !state.isStopped
                }
                guard start else { return }
                let core = self
                switch DedicatedThread.start(name: "syncgate-files", { core.readLoop() }) {
                case .success(let thread):
                    // Nobody joins it: it ends on its own after `stop()`, and its resources go with it.
                    pthread_detach(thread)
                case .failure:
                    SyncGateLog.log(.error, "file watcher: cannot start its thread; file triggers will not fire")
                }
            }

            func stop() {
                let (reading, first) = state.withLock { state in
                    defer { state.isStopped = true }
                    return (state.isReading, !state.isStopped)
                }
                guard first else { return }
                if reading {
                    var byte: UInt8 = 1
                    _ = write(stopWrite, &byte, 1)
                } else {
                    closeAll()
                }
            }

            private func closeAll() {
                close(descriptor)
                close(stopRead)
                close(stopWrite)
                if mounts >= 0 { close(mounts) }
            }

            func register(
                paths: [String], exclusion: FileTreeExclusion, onChange: @escaping @Sendable () -> Void
            ) -> UInt64 {
                state.withLock { state in
                    state.nextID += 1
                    state.watches[state.nextID] = Watch(roots: paths, exclusion: exclusion, onChange: onChange)
                    return state.nextID
                }
            }

            func isExcluded(_ path: String, from id: UInt64) -> Bool {
                state.withLock { state in state.watches[id]?.exclusion.excludes(path) ?? false }
            }

            func kind(ofRoot path: String) throws(SyncFileWatchError) -> FileObjectKind {
                var information = stat()
                guard SystemBytes.withCString(path, { stat($0, &information) }) == 0 else {
                    let code = errno
                    throw SyncFileWatchError(path: path, reason: code == ENOENT ? .missing : .system(errno: code))
                }
                return information.st_mode & S_IFMT == S_IFDIR ? .directory : .other
            }

            func subdirectories(of path: String) -> [String] { Self.subdirectories(of: path) }

            func addDirectory(
                _ path: String, id: UInt64, names: Set<String>?, isRoot: Bool
            ) throws(SyncFileWatchError) -> Bool {
                // Read before the watch is added: a mount in between shows as a change of identity later.
                let identity = FileIdentity(of: path)
                let outcome = state.withLock { (state: inout State) -> Result<Int32, SyncFileWatchError>? in
                    guard state.watches[id] != nil, !state.isStopped else { return nil }
                    let mask = InotifyWatcher.directoryMask | (isRoot ? 0 : UInt32(IN_DONT_FOLLOW))
                    let wd = SystemBytes.withCString(path) { inotify_add_watch(descriptor, $0, mask) }
                    guard wd >= 0 else {
                        let code = errno
                        if code == ENOSPC {
                            return .failure(
                                SyncFileWatchError(
                                    path: path, reason: .watchLimitReached(limit: InotifyWatcher.watchLimitSetting)))
                        }
                        if code == ENOENT || code == ENOTDIR {
                            return .failure(SyncFileWatchError(path: path, reason: .missing))
                        }
                        return .failure(SyncFileWatchError(path: path, reason: .system(errno: code)))
                    }
                    var directory = state.directories[wd] ?? Directory(path: path, identity: identity)
                    directory.path = path
                    directory.users[id] = .some(Self.joined(directory.users[id], names))
                    state.directories[wd] = directory
                    if let identity { state.shownIdentities[path] = identity }
                    state.watches[id]?.directories.insert(wd)
                    return .success(wd)
                }
                guard case .failure(let error)? = outcome else { return true }
                if case .missing = error.reason, !isRoot { return false }
                throw error
            }

            /// Watches the entries of the symbolic links `root` goes through for watch `id` (see
            /// ``FileTreeWatchCore/watchLinks(ofRoot:id:)``) and records them, and, when the links lead to
            /// something other than a directory, its entry, so that ``relink(_:id:)`` can forget them.
            func watchLinks(ofRoot root: String, id: UInt64) -> String {
                var path = root
                var links: [String] = []
                while links.count < Self.maximumLinks, let target = Self.linkTarget(of: path) {
                    links.append(path)
                    path = target.hasPrefix("/") ? target : Self.path(of: target, in: Self.split(path).parent)
                }
                guard !links.isEmpty else { return root }
                var entries: Set<Entry> = []
                for link in links {
                    do {
                        guard
                            try addDirectory(
                                Self.split(link).parent, id: id, names: [Self.split(link).name], isRoot: false)
                        else { continue }
                    } catch {
                        SyncGateLog.log(.error, "file trigger: \(error); a new target of the link \(link) is not seen")
                        continue
                    }
                    entries.insert(Entry(link))
                    state.withLock { $0.watches[id]?.links[Array(link.utf8)] = root }
                }
                if !Self.isDirectory(path) { entries.insert(Entry(path)) }
                state.withLock { $0.watches[id]?.entries[Array(root.utf8), default: []].formUnion(entries) }
                return path
            }

            /// Watches root `root` of watch `id` again after one of its symbolic links changed: what it
            /// watched through the old target (the tree, or the file's entry) is forgotten, and the root is
            /// added as new, at its new target. A root whose links now lead nowhere stays unwatched, its
            /// links' entries watched, until a link leads somewhere again; another failure is logged.
            private func relink(_ root: String, id: UInt64) {
                let before = state.withLock { (state: inout State) -> (Set<Entry>, [[UInt8]: String])? in
                    guard var watch = state.watches[id] else { return nil }
                    let entries = watch.entries.removeValue(forKey: Array(root.utf8)) ?? []
                    let links = watch.links.filter { $0.value.utf8.elementsEqual(root.utf8) }
                    watch.links = watch.links.filter { !$0.value.utf8.elementsEqual(root.utf8) }
                    state.watches[id] = watch
                    forgetTree(root, of: id, in: &state)
                    return (entries, links)
                }
                guard let (entries, links) = before else { return }
                do {
                    try add(root, id: id)
                } catch {
                    if case .missing = error.reason {
                    } else {
                        SyncGateLog.log(.error, "file trigger: \(error); changes under it are not seen")
                    }
                    // Nothing is there now: the old links' entries stay watched, to see one come back.
                    state.withLock { state in
                        state.watches[id]?.entries[Array(root.utf8), default: []].formUnion(entries)
                        state.watches[id]?.links.merge(links) { new, _ in new }
                    }
                    return
                }
                state.withLock { state in
                    guard let watch = state.watches[id] else { return }
                    var kept = Set(watch.entries.values.joined())
                    if !watch.links.values.contains(where: { $0.utf8.elementsEqual(root.utf8) }) {
                        // The root is no symbolic link now: replaced by a file or a directory, or, for an
                        // instant, not yet made again when it was read. Its links' entries stay watched, so
                        // that a link made there again is followed, and so does the root's own entry, which
                        // is one of them.
                        let linkEntries = entries.intersection(
                            links.keys.map { Entry(String(decoding: $0, as: UTF8.self)) })
                        state.watches[id]?.links.merge(links) { new, _ in new }
                        state.watches[id]?.entries[Array(root.utf8), default: []].formUnion(linkEntries)
                        kept.formUnion(linkEntries)
                    }
                    for entry in entries.subtracting(kept) { forgetEntry(entry, of: id, in: &state) }
                }
            }

            /// Ends watch `id`'s use of one entry watched by name; a directory left with no use by the watch
            /// is released (a directory it watches as part of a tree stays).
            private func forgetEntry(_ entry: Entry, of id: UInt64, in state: inout State) {
                for wd in state.watches[id]?.directories ?? [] {
                    guard let directory = state.directories[wd], directory.path.utf8.elementsEqual(entry.directory),
                        case .some(.some(var names)) = directory.users[id]
                    else { continue }
                    names = names.filter { !$0.utf8.elementsEqual(entry.name) }
                    if names.isEmpty {
                        state.watches[id]?.directories.remove(wd)
                        release(wd, of: id, in: &state)
                    } else {
                        state.directories[wd]?.users[id] = .some(names)
                    }
                }
            }

            /// Ends watch `id`: its directories no other watch uses are no longer watched.
            func remove(_ id: UInt64) {
                state.withLock { state in
                    guard let watch = state.watches.removeValue(forKey: id) else { return }
                    for wd in watch.directories { release(wd, of: id, in: &state) }
                }
            }

            private func readLoop() {
                var buffer = [UInt8](repeating: 0, count: 64 * 1024)
                // poll ignores a negative descriptor: without the mount table, two are polled.
                var descriptors = [
                    pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
                    pollfd(fd: stopRead, events: Int16(POLLIN), revents: 0),
                    pollfd(fd: mounts, events: Int16(POLLPRI), revents: 0),
                ]
                while true {
                    for index in descriptors.indices { descriptors[index].revents = 0 }
                    let ready = poll(&descriptors, 3, -1)
                    if ready < 0 && errno == EINTR { continue }
                    if ready < 0 || descriptors[1].revents != 0 { break }
                    // The kernel clears the mark as it reports it, so nothing needs to be read.
                    if descriptors[2].revents & Int16(POLLPRI | POLLERR) != 0 {
                        for onChange in mountsChanged() { onChange() }
                    }
                    while true {
                        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                        if count < 0 && errno == EINTR { continue }
                        guard count > 0 else { break }
                        let changed = handle(buffer[..<count])
                        for onChange in changed { onChange() }
                    }
                }
                closeAll()
            }

            /// Handles one read's events; returns the callbacks of the watches they changed.
            private func handle(_ bytes: ArraySlice<UInt8>) -> [@Sendable () -> Void] {
                var changed: Set<UInt64> = []
                var appeared: [(path: String, users: [UInt64])] = []
                /// Roots of watches that are gone, and roots that appeared again in their parent.
                var lostRoots: [(path: String, id: UInt64)] = []
                var returnedRoots: [(path: String, id: UInt64)] = []
                /// Roots one of whose symbolic links was replaced or removed.
                var relinkedRoots: [(path: String, id: UInt64)] = []
                var overflowed = false
                state.withLock { state in
                    var offset = bytes.startIndex
                    while offset + 16 <= bytes.endIndex {
                        let (wd, mask, length) = bytes.withUnsafeBytes { raw in
                            let base = offset - bytes.startIndex
                            return (
                                raw.loadUnaligned(fromByteOffset: base, as: Int32.self),
                                raw.loadUnaligned(fromByteOffset: base + 4, as: UInt32.self),
                                Int(raw.loadUnaligned(fromByteOffset: base + 12, as: UInt32.self))
                            )
                        }
                        let nameBytes = bytes[(offset + 16)..<min(offset + 16 + length, bytes.endIndex)]
                        let name = SystemBytes.text(of: nameBytes.prefix { $0 != 0 })
                        offset += 16 + length
                        if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                            overflowed = true
                            state.overflows += 1
                            changed.formUnion(state.watches.keys)
                            continue
                        }
                        guard let directory = state.directories[wd] else { continue }
                        if mask & UInt32(IN_IGNORED) != 0 {
                            // The directory is gone (deleted, or its file system unmounted).
                            state.directories[wd] = nil
                            for (id, names) in directory.users {
                                state.watches[id]?.directories.remove(wd)
                                if names == nil, state.watches[id]?.roots.contains(directory.path) == true {
                                    lostRoots.append((directory.path, id))
                                }
                            }
                        }
                        if mask & UInt32(IN_MOVE_SELF) != 0 {
                            // A root moved away: its watches follow the moved directories, so they stop
                            // here, and the root is watched for in its parent, as a deleted one is.
                            for (id, names) in directory.users
                            where names == nil && state.watches[id]?.roots.contains(directory.path) == true {
                                forgetTree(directory.path, of: id, in: &state)
                                lostRoots.append((directory.path, id))
                            }
                        }
                        var trees: [UInt64] = []
                        let entry = Self.path(of: name, in: directory.path)
                        let isNewDirectory =
                            mask & UInt32(IN_ISDIR) != 0 && mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0
                        let isMovedAway =
                            mask & UInt32(IN_ISDIR) != 0 && mask & UInt32(IN_MOVED_FROM) != 0 && !name.isEmpty
                        let isRelink = mask & Self.relinkMask != 0 && !name.isEmpty
                        for (id, names) in directory.users {
                            if isRelink, let root = state.watches[id]?.links[Array(entry.utf8)] {
                                changed.insert(id)
                                if !relinkedRoots.contains(where: {
                                    $0.id == id && $0.path.utf8.elementsEqual(root.utf8)
                                }) {
                                    relinkedRoots.append((root, id))
                                }
                            }
                            if let names {
                                // Byte for byte: canonically equivalent names are different files.
                                guard names.contains(where: { $0.utf8.elementsEqual(name.utf8) }) else { continue }
                                changed.insert(id)
                                if isNewDirectory, state.watches[id]?.roots.contains(entry) == true {
                                    returnedRoots.append((entry, id))
                                }
                            } else {
                                changed.insert(id)
                                trees.append(id)
                                if isMovedAway {
                                    lostRoots += forgetMovedAway(entry, of: id, in: &state)
                                }
                            }
                        }
                        if isNewDirectory && !trees.isEmpty && !name.isEmpty {
                            appeared.append((entry, trees))
                        }
                    }
                }
                // New directories are watched and scanned outside the lock (one lock per directory added).
                for (path, users) in appeared {
                    for id in users { addLater(path, id: id) }
                }
                for (path, id) in lostRoots { watchForReturn(of: path, id: id) }
                for (path, id) in returnedRoots { addReturned(path, id: id) }
                for (path, id) in relinkedRoots { relink(path, id: id) }
                if overflowed {
                    // A lost event may have been a link's: every root that goes through links is added again.
                    let linked = state.withLock { state in
                        state.watches.flatMap { id, watch in
                            Dictionary(watch.links.values.map { (Array($0.utf8), $0) }) { first, _ in first }.values
                                .map { ($0, id) }
                        }
                    }
                    for (path, id) in linked { relink(path, id: id) }
                    let roots = state.withLock { state in state.watches.map { ($0.key, $0.value.roots) } }
                    for (id, paths) in roots {
                        for path in paths where Self.isDirectory(path) { addLater(path, id: id) }
                    }
                }
                return state.withLock { state in changed.sorted().compactMap { state.watches[$0]?.onChange } }
            }

            /// Watches again, after the mount table changed, every watched path that now shows a directory it
            /// did not watch (a file system mounted over it); returns the callbacks of the watches that use a
            /// path showing another directory than before, watched or not (an unmount that shows a covered
            /// directory again is a change too).
            private func mountsChanged() -> [@Sendable () -> Void] {
                // Every watched path, the identities watched there (a covered directory and what covers it
                // have the same path) and the watches that use it.
                var byPath: [String: (identities: Set<FileIdentity>, users: [UInt64: Set<String>?])] = [:]
                let (roots, shown) = state.withLock { state in
                    for directory in state.directories.values {
                        var entry = byPath[directory.path] ?? ([], [:])
                        if let identity = directory.identity { entry.identities.insert(identity) }
                        for (id, names) in directory.users { entry.users[id] = Self.joined(entry.users[id], names) }
                        byPath[directory.path] = entry
                    }
                    state.shownIdentities = state.shownIdentities.filter { byPath[$0.key] != nil }
                    return (state.watches.mapValues { Set($0.roots) }, state.shownIdentities)
                }
                var changed: Set<UInt64> = []
                for (path, entry) in byPath.sorted(by: { $0.key < $1.key }) {
                    guard let now = FileIdentity(of: path) else { continue }
                    if entry.identities.contains(now) {
                        // Watched already: a change only when the path showed another directory before.
                        guard let before = shown[path], before != now else { continue }
                        state.withLock { $0.shownIdentities[path] = now }
                        changed.formUnion(entry.users.keys)
                        continue
                    }
                    for (id, names) in entry.users {
                        let isRoot = roots[id]?.contains(path) == true
                        do {
                            if let names {
                                _ = try addDirectory(path, id: id, names: names, isRoot: false)
                            } else {
                                try addTree(path, id: id, isRoot: isRoot)
                            }
                        } catch {
                            SyncGateLog.log(.error, "file trigger: \(error); changes under it are not seen")
                        }
                        changed.insert(id)
                    }
                }
                return state.withLock { state in changed.sorted().compactMap { state.watches[$0]?.onChange } }
            }

            /// Ends watch `id`'s use of the directory at `path`, moved out of one of its trees, and of every
            /// directory under it: their watches would follow them to their new place (a directory moved
            /// within the tree is watched again at its new path when the move's other half arrives). Returns
            /// the watch's roots that went with it, to be watched for in their parents.
            private func forgetMovedAway(
                _ path: String, of id: UInt64, in state: inout State
            ) -> [(path: String, id: UInt64)] {
                forgetTree(path, of: id, in: &state)
                return (state.watches[id]?.roots ?? []).filter { Self.isInTree($0, at: path) }.map { ($0, id) }
            }

            /// Ends watch `id`'s use of the directories of the tree at `root` (the root and every directory
            /// under its path); a directory no other watch uses is no longer watched.
            private func forgetTree(_ root: String, of id: UInt64, in state: inout State) {
                for wd in state.watches[id]?.directories ?? [] {
                    guard let path = state.directories[wd]?.path, Self.isInTree(path, at: root) else { continue }
                    state.watches[id]?.directories.remove(wd)
                    release(wd, of: id, in: &state)
                }
            }

            /// Ends watch `id`'s use of directory `wd`; a directory no other watch uses is no longer watched.
            private func release(_ wd: Int32, of id: UInt64, in state: inout State) {
                state.directories[wd]?.users[id] = nil
                if state.directories[wd]?.users.isEmpty == true {
                    state.directories[wd] = nil
                    if !state.isStopped { inotify_rm_watch(descriptor, wd) }
                }
            }

            /// Watches a tree that appeared after its watch began; a failure is logged (the change is
            /// reported anyway).
            private func addLater(_ path: String, id: UInt64) {
                do {
                    try addTree(path, id: id, isRoot: false)
                } catch {
                    SyncGateLog.log(.error, "file trigger: \(error); changes under it are not seen")
                }
            }

            /// The target of the symbolic link at `path` (as the link holds it: relative to the link's
            /// directory unless it begins with `/`); `nil` when `path` is no symbolic link.
            static func linkTarget(of path: String) -> String? {
                var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX))
                let count = SystemBytes.withCString(path) { link in
                    buffer.withUnsafeMutableBytes {
                        readlink(link, $0.baseAddress!.assumingMemoryBound(to: CChar.self), $0.count)
                    }
                }
                guard count > 0 else { return nil }
                return SystemBytes.text(of: buffer[..<count])
            }

            static func isDirectory(_ path: String) -> Bool {
                var information = stat()
                return SystemBytes.withCString(path, { stat($0, &information) }) == 0
                    && information.st_mode & S_IFMT == S_IFDIR
            }

            /// The subdirectories of `path` (not following symbolic links); none when it cannot be read.
            static func subdirectories(of path: String) -> [String] {
                var found: [String] = []
                DirectoryListing.forEach(in: path) { entry in
                    let child = Self.path(of: entry.name, in: path)
                    if entry.isDirectory {
                        found.append(child)
                    } else if entry.isTypeUnknown {
                        var information = stat()
                        if SystemBytes.withCString(child, { lstat($0, &information) }) == 0
                            && information.st_mode & S_IFMT == S_IFDIR
                        {
                            found.append(child)
                        }
                    }
                }
                return found
            }
        }
    }
#endif
