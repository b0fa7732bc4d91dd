import Testing

@testable import SyncGateCore

/// Counts the calls of a watch's `onChange`.
final class ChangeCounter: Sendable {
    let count = LockedState(0)

    var onChange: @Sendable () -> Void { { [count] in count.withLock { $0 += 1 } } }
}

/// The Apple file watcher above its dispatch-source seam: which objects are watched for which paths, how
/// the trees follow their directories, all-or-nothing failures, and cancellation.
@Suite("Apple file tree watcher", .timeLimit(.minutes(1)))
struct FileTreeWatcherTests {
    static let tree: Set<String> = ["/r", "/r/a", "/r/a/b", "/r/c", "/s"]
    static let files: Set<String> = ["/r/f.txt", "/r/a/g.txt", "/s/h.txt"]

    static let watchTable: [(paths: [String], watched: [String])] = [
        (["/r"], ["/r", "/r/a", "/r/a/b", "/r/c"]),
        (["/r/a"], ["/r/a", "/r/a/b"]),
        (["/r/f.txt"], ["/r"]),
        (["/r/a/g.txt", "/s/h.txt"], ["/r/a", "/s"]),
        (["/r/a", "/r/a/g.txt"], ["/r/a", "/r/a/b"]),
        (["/r/f.txt", "/r/a/g.txt", "/s"], ["/r", "/r/a", "/s"]),
    ]

    @Test("every directory of a tree is watched, a file through its parent", arguments: watchTable)
    func watchedObjects(paths: [String], watched: [String]) throws {
        let source = FakeFileEventSource(directories: Self.tree, files: Self.files)
        let watcher = FileTreeWatcher(source: source)
        let watch = try watcher.watch(paths: paths) {}
        #expect(watcher.watchedPaths == watched)
        #expect(source.watched == watched, "one object watch per directory, shared by the paths")
        watch.cancel()
        #expect(watcher.watchedPaths.isEmpty)
        #expect(source.watched.isEmpty)
    }

    static let failureTable: [(paths: [String], refused: [String: Int32], error: SyncFileWatchError)] = [
        (["/r", "/missing"], [:], SyncFileWatchError(path: "/missing", reason: .missing)),
        (["/r/nothing.txt"], [:], SyncFileWatchError(path: "/r/nothing.txt", reason: .missing)),
        (["/s", "/r"], ["/r/a/b": 13], SyncFileWatchError(path: "/r/a/b", reason: .system(errno: 13))),
        (["/r/f.txt", "/s/h.txt"], ["/s": 24], SyncFileWatchError(path: "/s", reason: .system(errno: 24))),
    ]

    @Test("a watch is all or nothing; the error names the path", arguments: failureTable)
    func allOrNothing(paths: [String], refused: [String: Int32], error: SyncFileWatchError) {
        let source = FakeFileEventSource(directories: Self.tree, files: Self.files, refused: refused)
        let watcher = FileTreeWatcher(source: source)
        let other = ChangeCounter()
        let kept = try? watcher.watch(paths: ["/r/c"], onChange: other.onChange)
        #expect(throws: error) { try watcher.watch(paths: paths) {} }
        #expect(watcher.watchedPaths == ["/r/c"], "only the other watch's object remains")
        #expect(source.watched == ["/r/c"])
        source.notify("/r/c")
        #expect(other.count.withLock { $0 } == 1)
        kept?.cancel()
    }

    /// A fake tree of ``tree`` and ``files``, a watcher over it, and a watch of `paths` counting its changes.
    static func watching(
        _ paths: [String]
    ) throws -> (FakeFileEventSource, FileTreeWatcher, ChangeCounter, any FileWatchCancelling) {
        let source = FakeFileEventSource(directories: tree, files: files)
        let watcher = FileTreeWatcher(source: source)
        let changes = ChangeCounter()
        return (source, watcher, changes, try watcher.watch(paths: paths, onChange: changes.onChange))
    }

    static let rescanTable: [(added: Set<String>, removed: Set<String>, notified: String, watched: [String])] = [
        (["/r/n", "/r/n/m"], [], "/r", ["/r", "/r/a", "/r/a/b", "/r/c", "/r/n", "/r/n/m"]),
        (["/r/a/b/d"], [], "/r/a/b", ["/r", "/r/a", "/r/a/b", "/r/a/b/d", "/r/c"]),
        ([], ["/r/a", "/r/a/b"], "/r", ["/r", "/r/c"]),
        ([], ["/r/a", "/r/a/b"], "/r/a", ["/r", "/r/c"]),
        (["/r/x"], ["/r/a", "/r/a/b"], "/r", ["/r", "/r/c", "/r/x"]),
        ([], ["/r", "/r/a", "/r/a/b", "/r/c"], "/r", []),
    ]

    /// A notification reads the directory again: directories that appeared are watched with what they hold,
    /// those gone (seen from the parent or from their own notification) are dropped with what was under
    /// them, and the watch is told once; afterwards every watched directory's notification reaches it.
    @Test("a notification follows the directories that come and go", arguments: rescanTable)
    func rescan(added: Set<String>, removed: Set<String>, notified: String, watched: [String]) throws {
        let (source, watcher, changes, watch) = try Self.watching(["/r"])
        source.tree.withLock { tree in
            tree.directories.formUnion(added)
            tree.directories.subtract(removed)
        }
        source.notify(notified)
        #expect(watcher.watchedPaths == watched)
        #expect(source.watched == watched)
        #expect(source.tree.withLock { $0.cancelled.sorted() } == removed.sorted())
        #expect(changes.count.withLock { $0 } == 1)
        for path in watched { source.notify(path) }
        #expect(changes.count.withLock { $0 } == 1 + watched.count)
        watch.cancel()
        #expect(source.watched.isEmpty)
    }

    @Test("a file's watch sees its parent's changes; a tree sharing the parent keeps it after the file's ends")
    func sharedParent() throws {
        let (source, watcher, file, fileWatch) = try Self.watching(["/r/f.txt"])
        let tree = ChangeCounter()
        let treeWatch = try watcher.watch(paths: ["/r"], onChange: tree.onChange)
        #expect(source.watched == ["/r", "/r/a", "/r/a/b", "/r/c"], "the parent is watched once")
        source.notify("/r")
        #expect(file.count.withLock { $0 } == 1)
        #expect(tree.count.withLock { $0 } == 1)
        source.notify("/r/a")
        #expect(file.count.withLock { $0 } == 1, "a subdirectory is not the file's")
        #expect(tree.count.withLock { $0 } == 2)
        fileWatch.cancel()
        #expect(source.watched == ["/r", "/r/a", "/r/a/b", "/r/c"])
        treeWatch.cancel()
        #expect(source.watched.isEmpty)
    }

    /// The root directory stays a tree when the same watch also names a file in it, in either order: a
    /// directory that appears in it is still watched.
    @Test(
        "a tree and a file in its root, in one watch: the root stays a tree",
        arguments: [
            ["/r", "/r/f.txt"], ["/r/f.txt", "/r"],
        ])
    func treeAndFileInItsRoot(paths: [String]) throws {
        let (source, watcher, changes, watch) = try Self.watching(paths)
        source.tree.withLock { $0.directories.formUnion(["/r/n"]) }
        source.notify("/r")
        #expect(watcher.watchedPaths == ["/r", "/r/a", "/r/a/b", "/r/c", "/r/n"])
        #expect(changes.count.withLock { $0 } == 1)
        watch.cancel()
    }

    @Test("an ignored subtree is not watched: at the start, nor when it appears later; a root always is")
    func ignoredSubtrees() throws {
        let source = FakeFileEventSource(directories: Self.tree, files: Self.files)
        let watcher = FileTreeWatcher(source: source)
        let changes = ChangeCounter()
        let watch = try watcher.watch(paths: ["/r"], ignoring: ["/r/a", "/r/n"], onChange: changes.onChange)
        #expect(watcher.watchedPaths == ["/r", "/r/c"])
        source.tree.withLock { $0.directories.formUnion(["/r/n", "/r/n/m", "/r/c/d"]) }
        source.notify("/r")
        source.notify("/r/c")
        #expect(watcher.watchedPaths == ["/r", "/r/c", "/r/c/d"])
        #expect(changes.count.withLock { $0 } == 2)
        watch.cancel()

        let inside = try watcher.watch(paths: ["/r/a"], ignoring: ["/r"], onChange: {})
        #expect(watcher.watchedPaths == ["/r/a", "/r/a/b"])
        inside.cancel()
    }

    @Test("a root deleted is watched for in its parent, by name, and watched as a tree again when it returns")
    func returningRoot() throws {
        let source = FakeFileEventSource(directories: ["/p", "/p/r", "/p/r/a"])
        let watcher = FileTreeWatcher(source: source)
        let changes = ChangeCounter()
        let watch = try watcher.watch(paths: ["/p/r"], onChange: changes.onChange)
        #expect(source.watched == ["/p/r", "/p/r/a"])

        source.tree.withLock { $0.directories.subtract(["/p/r", "/p/r/a"]) }
        source.notify("/p/r")
        #expect(watcher.watchedPaths == ["/p"], "the parent, for the root's name")
        #expect(source.watched == ["/p"])
        #expect(changes.count.withLock { $0 } == 1)

        source.tree.withLock { $0.directories.formUnion(["/p/r", "/p/r/n"]) }
        source.notify("/p")
        #expect(watcher.watchedPaths == ["/p", "/p/r", "/p/r/n"])
        #expect(changes.count.withLock { $0 } == 2)
        source.notify("/p/r/n")
        #expect(changes.count.withLock { $0 } == 3)

        watch.cancel()
        #expect(source.watched.isEmpty)
    }

    @Test("after cancel, no notification is reported and nothing stays watched")
    func cancelStopsEverything() throws {
        let (source, watcher, changes, watch) = try Self.watching(["/r", "/s/h.txt"])
        let handlers = source.tree.withLock { $0.handlers.values.map(\.onEvent) }
        watch.cancel()
        watch.cancel()
        for onEvent in handlers { onEvent() }
        #expect(changes.count.withLock { $0 } == 0)
        #expect(source.watched.isEmpty)
        #expect(watcher.watchedPaths.isEmpty)
    }

    @Test("onChange is called outside the watcher's lock")
    func callbackOutsideLock() throws {
        let source = FakeFileEventSource(directories: Self.tree)
        let watcher = FileTreeWatcher(source: source)
        let seen = LockedState<[String]>([])
        let watch = try watcher.watch(paths: ["/r/c"]) { [weak watcher] in
            seen.withLock { $0 = watcher?.watchedPaths ?? [] }
        }
        source.notify("/r/c")
        #expect(seen.withLock { $0 } == ["/r/c"])
        watch.cancel()
    }
}
