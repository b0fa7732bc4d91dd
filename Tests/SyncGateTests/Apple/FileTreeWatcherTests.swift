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

    @Test("a directory that appears is watched with what it holds, and reported once")
    func newSubdirectory() throws {
        let source = FakeFileEventSource(directories: Self.tree)
        let watcher = FileTreeWatcher(source: source)
        let changes = ChangeCounter()
        let watch = try watcher.watch(paths: ["/r"], onChange: changes.onChange)
        source.tree.withLock { $0.directories.formUnion(["/r/n", "/r/n/m"]) }
        source.notify("/r")
        #expect(watcher.watchedPaths == ["/r", "/r/a", "/r/a/b", "/r/c", "/r/n", "/r/n/m"])
        #expect(changes.count.withLock { $0 } == 1)
        source.notify("/r/n/m")
        #expect(changes.count.withLock { $0 } == 2, "a change in the new directory is seen")
        watch.cancel()
    }

    @Test("a directory that goes is dropped with everything under it")
    func removedSubdirectory() throws {
        let source = FakeFileEventSource(directories: Self.tree)
        let watcher = FileTreeWatcher(source: source)
        let changes = ChangeCounter()
        let watch = try watcher.watch(paths: ["/r"], onChange: changes.onChange)
        source.tree.withLock { $0.directories.subtract(["/r/a", "/r/a/b"]) }
        source.notify("/r")
        #expect(watcher.watchedPaths == ["/r", "/r/c"])
        #expect(source.tree.withLock { $0.cancelled.sorted() } == ["/r/a", "/r/a/b"])
        #expect(changes.count.withLock { $0 } == 1)
        watch.cancel()
    }

    @Test("a directory's own notification after it is gone drops it")
    func deletedDirectory() throws {
        let source = FakeFileEventSource(directories: Self.tree)
        let watcher = FileTreeWatcher(source: source)
        let changes = ChangeCounter()
        let watch = try watcher.watch(paths: ["/r"], onChange: changes.onChange)
        source.tree.withLock { $0.directories.subtract(["/r/a", "/r/a/b"]) }
        source.notify("/r/a")
        #expect(watcher.watchedPaths == ["/r", "/r/c"])
        #expect(changes.count.withLock { $0 } == 1)
        watch.cancel()
    }

    @Test("a file's watch sees its parent's changes; a tree sharing the parent keeps it after the file's ends")
    func sharedParent() throws {
        let source = FakeFileEventSource(directories: Self.tree, files: Self.files)
        let watcher = FileTreeWatcher(source: source)
        let file = ChangeCounter()
        let tree = ChangeCounter()
        let fileWatch = try watcher.watch(paths: ["/r/f.txt"], onChange: file.onChange)
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

    @Test("after cancel, no notification is reported and nothing stays watched")
    func cancelStopsEverything() throws {
        let source = FakeFileEventSource(directories: Self.tree, files: Self.files)
        let watcher = FileTreeWatcher(source: source)
        let changes = ChangeCounter()
        let watch = try watcher.watch(paths: ["/r", "/s/h.txt"], onChange: changes.onChange)
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
