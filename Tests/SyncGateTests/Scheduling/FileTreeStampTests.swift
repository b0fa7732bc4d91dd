import Foundation
import SyncGateCore
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The restore-time check of a file trigger (``FileTreeStamp``) with ignored paths: a change inside an
/// ignored subtree does not count, one elsewhere does, and a path that is itself ignored is read whole.
///
/// The files are made now and the instant checked is a minute ahead, so only the times set explicitly
/// (an hour past the instant, with `utimensat`) are later than it; nothing waits.
@Suite("File tree stamp", .timeLimit(.minutes(1)))
struct FileTreeStampTests {
    let directory = TemporaryDirectory()
    let instant = Date().addingTimeInterval(60)

    var root: String { directory.path }
    var state: String { directory.path + "/state" }

    init() throws {
        try FileManager.default.createDirectory(atPath: directory.path + "/docs", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: state + "/runs", withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: root + "/docs/a.txt"))
        try Data("x".utf8).write(to: URL(fileURLWithPath: state + "/runs/log"))
    }

    /// Sets the access and modification times of `path` to an hour after ``instant``.
    func changeLater(_ path: String) {
        let later = Int(instant.timeIntervalSince1970) + 3_600
        var times = [timespec(tv_sec: later, tv_nsec: 0), timespec(tv_sec: later, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0, "utimensat \(path): errno \(errno)")
    }

    @Test("a tree whose only change is inside an ignored subtree is unchanged; a change elsewhere counts")
    func ignoredSubtree() {
        #expect(!FileTreeStamp.changed(under: [root], since: instant, ignoring: [state]))
        changeLater(state + "/runs/log")
        changeLater(state + "/runs")
        changeLater(state)
        #expect(FileTreeStamp.changed(under: [root], since: instant))
        #expect(!FileTreeStamp.changed(under: [root], since: instant, ignoring: [state]))
        #expect(!SystemFileWatcher(ignoring: [state]).changed(under: [root], since: instant))
        #expect(SystemFileWatcher().changed(under: [root], since: instant))

        changeLater(root + "/docs/a.txt")
        #expect(FileTreeStamp.changed(under: [root], since: instant, ignoring: [state]))
        #expect(SystemFileWatcher(ignoring: [state]).changed(under: [root], since: instant))
    }

    /// A watched path that is a symbolic link is read at its target, as the watchers watch it: a change
    /// there while no process watched counts (only the link's own times were read, so it was missed).
    @Test("a path that is a symbolic link is read at its target, and the link's own times count")
    func linkIsReadAtItsTarget() {
        let link = root + "/link"
        #expect(symlink(root + "/docs", link) == 0)
        #expect(!FileTreeStamp.changed(under: [link], since: instant))
        changeLater(root + "/docs/a.txt")
        #expect(FileTreeStamp.changed(under: [link], since: instant))
        #expect(FileTreeStamp.latestChange(under: [link]) == FileTreeStamp.latestChange(under: [root + "/docs"]))
    }

    @Test("a path that is, or lies inside, an ignored path is read with its whole tree")
    func rootInsideAnIgnoredPath() {
        changeLater(state + "/runs/log")
        #expect(FileTreeStamp.changed(under: [state], since: instant, ignoring: [state]))
        #expect(FileTreeStamp.changed(under: [state + "/runs"], since: instant, ignoring: [root]))
    }
}
