#if os(Linux)
    import Foundation
    import Glibc
    import SyncGateCore
    import SyncGateTestSupport
    import SyncGateTesting
    import Testing

    /// The inotify watcher on a real file system (a tmpfs mounted for each test): every kind of change
    /// is reported, new subdirectories are followed at once, an overflow of the kernel's queue counts as
    /// a change, and the watch limit is a clear error to the submitter.
    ///
    /// Each test makes its own watcher instance and starts its thread only after the setup it must not
    /// see, so the first report awaited is the change under test. Reports are awaited on a stream, never
    /// after a delay. The tests that change the kernel's inotify settings are serialized.
    @Suite(
        .enabled(if: TmpfsVolume.isEnabled, TmpfsVolume.skipComment), .serialized, .startsProcesses,
        .timeLimit(.minutes(2)))
    struct InotifyWatcherTests {
        /// A watch whose reports arrive on a stream.
        final class Reports: Sendable {
            let stream: AsyncStream<Void>
            private let continuation: AsyncStream<Void>.Continuation

            init() {
                (stream, continuation) = AsyncStream.makeStream(of: Void.self)
            }

            var onChange: @Sendable () -> Void { { [continuation] in continuation.yield() } }

            /// Waits for the next report (the suite's time limit bounds the wait).
            func next() async -> Bool {
                var iterator = stream.makeAsyncIterator()
                return await iterator.next() != nil
            }
        }

        static func write(_ path: String, _ text: String = "x", append: Bool = false) throws {
            let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC)
            let file = open(path, flags, 0o600)
            guard file >= 0 else { throw DBusTestError("open \(path) failed: errno \(errno)") }
            defer { close(file) }
            _ = text.withCString { Glibc.write(file, $0, strlen($0)) }
        }

        static func makeDirectory(_ path: String) throws {
            guard mkdir(path, 0o700) == 0 else { throw DBusTestError("mkdir \(path) failed: errno \(errno)") }
        }

        /// One kind of change: what exists before the watch starts, and the change.
        struct Case: Sendable, CustomTestStringConvertible {
            let name: String
            let setup: @Sendable (_ root: String, _ outside: String) throws -> Void
            let change: @Sendable (_ root: String, _ outside: String) throws -> Void
            var testDescription: String { name }
        }

        static let cases: [Case] = [
            Case(name: "create", setup: { _, _ in }, change: { root, _ in try write(root + "/new") }),
            Case(
                name: "modify", setup: { root, _ in try write(root + "/file") },
                change: { root, _ in try write(root + "/file", "more", append: true) }),
            Case(
                name: "move in", setup: { _, outside in try write(outside + "/file") },
                change: { root, outside in _ = rename(outside + "/file", root + "/file") }),
            Case(
                name: "move out", setup: { root, _ in try write(root + "/file") },
                change: { root, outside in _ = rename(root + "/file", outside + "/file") }),
            Case(
                name: "delete", setup: { root, _ in try write(root + "/file") },
                change: { root, _ in _ = unlink(root + "/file") }),
            Case(
                name: "create deep in the tree",
                setup: { root, _ in
                    try makeDirectory(root + "/a")
                    try makeDirectory(root + "/a/b")
                    try makeDirectory(root + "/a/b/c")
                }, change: { root, _ in try write(root + "/a/b/c/new") }),
            Case(
                name: "delete a subdirectory", setup: { root, _ in try makeDirectory(root + "/sub") },
                change: { root, _ in _ = rmdir(root + "/sub") }),
        ]

        @Test(arguments: cases)
        func changeIsReported(_ change: Case) async throws {
            let volume = try TmpfsVolume(size: 1 << 20)
            let root = volume.path + "/watched"
            let outside = volume.path + "/outside"
            try Self.makeDirectory(root)
            try Self.makeDirectory(outside)
            try change.setup(root, outside)
            let watcher = try InotifyWatcher()
            let reports = Reports()
            let watch = try watcher.watch(paths: [root], onChange: reports.onChange)
            defer { watch.cancel() }
            try change.change(root, outside)
            #expect(await reports.next())
        }

        /// Alone, a file is watched through its directory by name, and an editor's save (a temporary file
        /// renamed over it) counts. With its directory in the same watch, the directory stays a tree: a
        /// change of another entry counts too.
        @Test(
            "a file path is watched through its directory, by name: its replacement by a rename counts",
            arguments: [false, true])
        func fileByName(withItsDirectory: Bool) async throws {
            let volume = try TmpfsVolume(size: 1 << 20)
            let file = volume.path + "/settings.conf"
            try Self.write(file)
            let watcher = try InotifyWatcher(startsReading: false)
            let reports = Reports()
            let paths = withItsDirectory ? [volume.path, file] : [file]
            let watch = try watcher.watch(paths: paths, onChange: reports.onChange)
            defer { watch.cancel() }
            if withItsDirectory {
                try Self.write(volume.path + "/other")
            } else {
                try Self.write(volume.path + "/settings.conf.tmp")
                _ = rename(volume.path + "/settings.conf.tmp", file)
            }
            watcher.startReading()
            #expect(await reports.next())
            #expect(watcher.watchedDirectoryCount == 1)
        }

        @Test("a new subdirectory, and one created inside it before its watch was added, are watched")
        func newSubdirectories() async throws {
            let volume = try TmpfsVolume(size: 1 << 20)
            let root = volume.path + "/watched"
            try Self.makeDirectory(root)
            let watcher = try InotifyWatcher(startsReading: false)
            let reports = Reports()
            let watch = try watcher.watch(paths: [root], onChange: reports.onChange)
            defer { watch.cancel() }
            #expect(watcher.watchedDirectoryCount == 1)
            // All of this happens before anything reads the queue: only `sub`'s creation is queued (the
            // rest happened in directories nobody watched yet), and handling it scans `sub`.
            try Self.makeDirectory(root + "/sub")
            try Self.makeDirectory(root + "/sub/inner")
            try Self.write(root + "/sub/inner/first")
            watcher.startReading()
            #expect(await reports.next())
            #expect(watcher.watchedDirectoryCount == 3)
            // A change in the directory created before its parent was watched is seen.
            try Self.write(root + "/sub/inner/second")
            #expect(await reports.next())
        }

        @Test("an ignored subtree is not watched: at the start, when it is made later, nor what is made in it")
        func ignoredSubtrees() async throws {
            let volume = try TmpfsVolume(size: 1 << 20)
            let root = volume.path + "/watched"
            let state = root + "/state"
            let later = root + "/later"
            try Self.makeDirectory(root)
            try Self.makeDirectory(root + "/docs")
            try Self.makeDirectory(state)
            try Self.makeDirectory(state + "/runs")
            let watcher = try InotifyWatcher(startsReading: false)
            let reports = Reports()
            let watch = try watcher.watch(paths: [root], ignoring: [state, later + "/"], onChange: reports.onChange)
            defer { watch.cancel() }
            #expect(watcher.watchedDirectoryPaths == [root, root + "/docs"])
            // Before anything reads the queue: `later`'s creation is queued (an entry of the root changed),
            // and handling it does not watch it, nor `inner`, made in it meanwhile.
            try Self.makeDirectory(later)
            try Self.makeDirectory(later + "/inner")
            watcher.startReading()
            #expect(await reports.next())
            #expect(watcher.watchedDirectoryPaths == [root, root + "/docs"])
            // A directory made inside an ignored one is not watched; one made elsewhere in the tree is.
            try Self.makeDirectory(state + "/runs/new")
            try Self.makeDirectory(root + "/docs/new")
            await Self.reports(reports) { watcher.watchedDirectoryPaths.contains(root + "/docs/new") }
            #expect(watcher.watchedDirectoryPaths == [root, root + "/docs", root + "/docs/new"])
        }

        @Test("a watched path that is, or lies inside, an ignored path is watched with its whole tree")
        func rootInsideAnIgnoredPath() throws {
            let volume = try TmpfsVolume(size: 1 << 20)
            let state = volume.path + "/state"
            try Self.makeDirectory(state)
            try Self.makeDirectory(state + "/runs")
            let watcher = try InotifyWatcher(startsReading: false)
            let watch = try watcher.watch(paths: [state], ignoring: [volume.path], onChange: {})
            defer { watch.cancel() }
            #expect(watcher.watchedDirectoryPaths == [state, state + "/runs"])
        }

        @Test("files watched by name are told apart byte for byte: canonically equivalent names are different files")
        func equivalentNamesAreDifferentFiles() async throws {
            let volume = try TmpfsVolume(size: 1 << 20)
            let composed = volume.path + "/caf\u{E9}"
            let decomposed = volume.path + "/cafe\u{301}"
            try Self.write(composed)
            try Self.write(decomposed)
            let watcher = try InotifyWatcher()
            // The composed name's watch is made first: its callback would run before the other's, for a
            // change the same read reports to both.
            let composedChanges = LockedState(0)
            let first = try watcher.watch(paths: [composed]) { composedChanges.withLock { $0 += 1 } }
            defer { first.cancel() }
            let reports = Reports()
            let second = try watcher.watch(paths: [decomposed], onChange: reports.onChange)
            defer { second.cancel() }
            try Self.write(decomposed, "changed")
            #expect(await reports.next())
            #expect(composedChanges.withLock { $0 } == 0)
        }

        @Test("subdirectories whose names are not UTF-8, present at the start or made later, are watched")
        func namesThatAreNotUnicode() async throws {
            let volume = try TmpfsVolume(size: 1 << 20)
            let root = volume.path + "/watched"
            try Self.makeDirectory(root)
            // "caf\xE9" (Latin-1) and "x\xFF": no UTF-8 decoder takes them as they are.
            func make(_ bytes: [UInt8], in directory: String) throws -> [CChar] {
                let path =
                    Array(directory.utf8CString.dropLast()) + [CChar(bitPattern: 0x2F)]
                    + bytes.map { CChar(bitPattern: $0) } + [0]
                guard mkdir(path, 0o700) == 0 else { throw DBusTestError("mkdir failed: errno \(errno)") }
                return path
            }
            func touch(_ directory: [CChar]) throws {
                let file = Array(directory.dropLast()) + Array("/f".utf8CString)
                let fd = open(file, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
                guard fd >= 0 else { throw DBusTestError("open failed: errno \(errno)") }
                close(fd)
            }
            let present = try make([0x63, 0x61, 0x66, 0xE9], in: root)
            let watcher = try InotifyWatcher(startsReading: false)
            let reports = Reports()
            let watch = try watcher.watch(paths: [root], onChange: reports.onChange)
            defer { watch.cancel() }
            #expect(watcher.watchedDirectoryCount == 2)
            watcher.startReading()
            try touch(present)
            #expect(await reports.next())
            let later = try make([0x78, 0xFF], in: root)
            #expect(await reports.next())
            await Self.reports(reports) { watcher.watchedDirectoryCount == 3 }
            try touch(later)
            #expect(await reports.next())
        }

        /// Makes directory `index` in `barrier`, watched by `reports`' watch, and waits for its report: the
        /// reports of the changes made before it, to watches made before that watch, have then been
        /// delivered (a read's reports go out in the order the watches were made, reads in order).
        static func fence(_ barrier: String, _ index: Int, _ reports: Reports) async throws {
            try makeDirectory(barrier + "/\(index)")
            #expect(await reports.next())
        }

        /// A watched path that is a symbolic link to a directory is watched at its target; pointing the link
        /// elsewhere (`ln -sfn`: a new link renamed over it; or removed and made again) counts as a change,
        /// and from then on the new target is watched and the old one is not. The old target stayed watched
        /// and the new one never was.
        @Test(
            "a watched symbolic link made to point elsewhere counts, and its new target is watched instead of the old",
            arguments: [true, false])
        func retargetedLink(byRename: Bool) async throws {
            let volume = try TmpfsVolume(size: 1 << 20)
            let (old, new, barrier, link) = (
                volume.path + "/old", volume.path + "/new", volume.path + "/barrier", volume.path + "/link"
            )
            for directory in [old, new, barrier] { try Self.makeDirectory(directory) }
            #expect(symlink("old", link) == 0)
            let watcher = try InotifyWatcher()
            let changes = LockedState(0)
            let watch = try watcher.watch(paths: [link]) { changes.withLock { $0 += 1 } }
            defer { watch.cancel() }
            let reports = Reports()
            let fence = try watcher.watch(paths: [barrier], onChange: reports.onChange)
            defer { fence.cancel() }

            try Self.makeDirectory(old + "/a")
            try await Self.fence(barrier, 1, reports)
            #expect(changes.withLock { $0 } == 1)

            if byRename {
                #expect(symlink(new, link + ".tmp") == 0)
                #expect(rename(link + ".tmp", link) == 0)
            } else {
                #expect(unlink(link) == 0)
                #expect(symlink(new, link) == 0)
            }
            try await Self.fence(barrier, 2, reports)
            let retargeted = changes.withLock { $0 }
            #expect(retargeted > 1)

            try Self.makeDirectory(old + "/b")
            try await Self.fence(barrier, 3, reports)
            #expect(changes.withLock { $0 } == retargeted)
            try Self.makeDirectory(new + "/c")
            try await Self.fence(barrier, 4, reports)
            #expect(changes.withLock { $0 } == retargeted + 1)
            // Directories made in the new target are followed.
            try Self.makeDirectory(new + "/c/d")
            try await Self.fence(barrier, 5, reports)
            #expect(changes.withLock { $0 } == retargeted + 2)
        }

        /// A tmpfs volume with `files/one` and `files/two`, a symbolic link `link` to `files/one` watched
        /// (its changes counted in `changes`), and a directory `barrier` watched as the fence.
        final class LinkToFile {
            let volume: TmpfsVolume
            let files: String
            let barrier: String
            let link: String
            let changes = LockedState(0)
            let reports = Reports()
            private let watcher: InotifyWatcher
            private let watches: [any FileWatchCancelling]

            init() throws {
                volume = try TmpfsVolume(size: 1 << 20)
                (files, barrier, link) = (volume.path + "/files", volume.path + "/barrier", volume.path + "/link")
                for directory in [files, barrier] { try InotifyWatcherTests.makeDirectory(directory) }
                try InotifyWatcherTests.write(files + "/one")
                try InotifyWatcherTests.write(files + "/two")
                #expect(symlink(files + "/one", link) == 0)
                watcher = try InotifyWatcher()
                let changes = changes
                let watch = try watcher.watch(paths: [link]) { changes.withLock { $0 += 1 } }
                watches = [watch, try watcher.watch(paths: [barrier], onChange: reports.onChange)]
            }

            func cancel() {
                for watch in watches { watch.cancel() }
            }
        }

        /// A symbolic link to a file: the file is watched in its own directory (a change of it counts),
        /// and pointing the link to another file counts and moves the watch there.
        @Test("a watched symbolic link to a file follows the file, and the file it is made to point to")
        func linkToAFile() async throws {
            let fixture = try LinkToFile()
            defer { fixture.cancel() }
            let (files, barrier, link, changes, reports) = (
                fixture.files, fixture.barrier, fixture.link, fixture.changes, fixture.reports
            )

            #expect(rename(files + "/one", files + "/one.old") == 0)
            try await Self.fence(barrier, 1, reports)
            #expect(changes.withLock { $0 } == 1)
            #expect(rename(files + "/one.old", files + "/one") == 0)
            try await Self.fence(barrier, 2, reports)
            #expect(changes.withLock { $0 } == 2)

            #expect(unlink(link) == 0)
            #expect(symlink(files + "/two", link) == 0)
            try await Self.fence(barrier, 3, reports)
            let retargeted = changes.withLock { $0 }
            #expect(retargeted > 2)
            #expect(rename(files + "/one", files + "/one.old") == 0)
            try await Self.fence(barrier, 4, reports)
            #expect(changes.withLock { $0 } == retargeted)
            #expect(rename(files + "/two", files + "/two.old") == 0)
            try await Self.fence(barrier, 5, reports)
            #expect(changes.withLock { $0 } == retargeted + 1)
        }

        /// A symbolic link replaced by a file is watched as that file, and a link made there again is
        /// followed. The relink that found no link forgot the root's own entry, so the root's directory was
        /// no longer watched and nothing under the name counted again (seen as a flaky
        /// `linkToAFile`: a relink that read the link in the instant between its removal and its making
        /// again found none).
        @Test(
            "a watched symbolic link replaced by a file: the file's changes count, and a link made there again is followed"
        )
        func linkReplacedByAFileAndBack() async throws {
            let fixture = try LinkToFile()
            defer { fixture.cancel() }
            let (files, barrier, link, changes, reports) = (
                fixture.files, fixture.barrier, fixture.link, fixture.changes, fixture.reports
            )

            #expect(unlink(link) == 0)
            try Self.write(link)
            try await Self.fence(barrier, 1, reports)
            let replaced = changes.withLock { $0 }
            #expect(replaced > 0)
            // The file's own change counts (one event: its mode).
            #expect(chmod(link, 0o640) == 0)
            try await Self.fence(barrier, 2, reports)
            #expect(changes.withLock { $0 } == replaced + 1)
            // The old target is no longer watched.
            #expect(rename(files + "/one", files + "/one.old") == 0)
            try await Self.fence(barrier, 3, reports)
            #expect(changes.withLock { $0 } == replaced + 1)

            #expect(unlink(link) == 0)
            #expect(symlink(files + "/two", link) == 0)
            try await Self.fence(barrier, 4, reports)
            let relinked = changes.withLock { $0 }
            #expect(relinked > replaced + 1)
            #expect(rename(files + "/two", files + "/two.old") == 0)
            try await Self.fence(barrier, 5, reports)
            #expect(changes.withLock { $0 } == relinked + 1)
        }

        /// Waits for reports until `condition` holds; each state change the condition looks at is followed
        /// by a report. The suite's time limit bounds the wait: it ends the stream's wait, and the condition
        /// not holding is then recorded as an issue.
        static func reports(
            _ reports: Reports, sourceLocation: SourceLocation = #_sourceLocation, until condition: () -> Bool
        ) async {
            while !condition() {
                guard await reports.next() else {
                    Issue.record("no more reports, and the condition does not hold", sourceLocation: sourceLocation)
                    return
                }
            }
        }

        /// A tmpfs volume holding `watched/old`, and a new watcher's watch of `watched` (checked to cover both
        /// directories), its reports on a stream.
        static func watchedTree() throws -> (
            volume: TmpfsVolume, root: String, watcher: InotifyWatcher, reports: Reports, watch: any FileWatchCancelling
        ) {
            let volume = try TmpfsVolume(size: 1 << 20)
            let root = volume.path + "/watched"
            try makeDirectory(root)
            try makeDirectory(root + "/old")
            let watcher = try InotifyWatcher()
            let reports = Reports()
            let watch = try watcher.watch(paths: [root], onChange: reports.onChange)
            #expect(watcher.watchedDirectoryPaths == [root, root + "/old"])
            return (volume, root, watcher, reports, watch)
        }

        @Test("a watched directory deleted and made again is watched again, with what is made inside it")
        func recreatedRoot() async throws {
            let (volume, root, watcher, reports, watch) = try Self.watchedTree()
            defer { watch.cancel() }

            // Gone: what is watched now is its parent, for its name.
            _ = rmdir(root + "/old")
            _ = rmdir(root)
            await Self.reports(reports) { watcher.watchedDirectoryPaths == [volume.path] }

            // Made again: watched as a tree again, and a directory made inside it is followed.
            try Self.makeDirectory(root)
            await Self.reports(reports) { watcher.watchedDirectoryPaths.contains(root) }
            try Self.makeDirectory(root + "/new")
            await Self.reports(reports) { watcher.watchedDirectoryPaths.contains(root + "/new") }
            #expect(watcher.watchedDirectoryPaths == [volume.path, root, root + "/new"])
        }

        @Test(
            "a watched directory moved away is not followed to its new place; moved back, it is watched again as a tree"
        )
        func movedRoot() async throws {
            let (volume, root, watcher, reports, watch) = try Self.watchedTree()
            defer { watch.cancel() }
            let away = volume.path + "/away"

            // Moved away: neither it nor the directory inside it is watched any more (those watches would
            // follow them to their new place); its parent is, for its name.
            #expect(rename(root, away) == 0)
            await Self.reports(reports) { watcher.watchedDirectoryPaths == [volume.path] }

            // Moved back: watched as a tree again, the directory inside it too.
            #expect(rename(away, root) == 0)
            await Self.reports(reports) { watcher.watchedDirectoryPaths.contains(root + "/old") }
            #expect(watcher.watchedDirectoryPaths == [volume.path, root, root + "/old"])
            try Self.makeDirectory(root + "/new")
            await Self.reports(reports) { watcher.watchedDirectoryPaths.contains(root + "/new") }
        }

        @Test(
            "a subdirectory moved within the tree is watched at its new path; moved out of it, it is no longer watched"
        )
        func movedSubdirectory() async throws {
            let (volume, root, watcher, reports, watch) = try Self.watchedTree()
            defer { watch.cancel() }
            try Self.makeDirectory(root + "/old/inner")
            await Self.reports(reports) { watcher.watchedDirectoryPaths.contains(root + "/old/inner") }

            // Renamed in place: the watches follow the new name, with the directory inside it.
            #expect(rename(root + "/old", root + "/renamed") == 0)
            await Self.reports(reports) {
                watcher.watchedDirectoryPaths == [root, root + "/renamed", root + "/renamed/inner"]
            }

            // Moved out: neither it nor the directory inside it is watched any more.
            #expect(rename(root + "/renamed", volume.path + "/away") == 0)
            await Self.reports(reports) { watcher.watchedDirectoryPaths == [root] }
            try Self.makeDirectory(root + "/new")
            await Self.reports(reports) { watcher.watchedDirectoryPaths == [root, root + "/new"] }
        }

        @Test(
            "a file system mounted over the watched directory or inside its tree is watched; unmounted, what it covered is in view again"
        )
        func mountedOver() async throws {
            let (volume, root, watcher, reports, watch) = try Self.watchedTree()
            // The volume holds the tree: kept until the end (its deinitializer unmounts it).
            defer { withExtendedLifetime(volume) {} }
            defer { watch.cancel() }
            func count(_ path: String) -> Int { watcher.watchedDirectoryPaths.filter { $0 == path }.count }

            // Over the root: the new file system's root is watched (the covered directory stays watched), and
            // a directory made on it is followed.
            try #require(mount("tmpfs", root, "tmpfs", 0, "size=1m,mode=0700") == 0, "errno \(errno)")
            defer { umount2(root, Int32(MNT_DETACH)) }
            await Self.reports(reports) { count(root) == 2 }
            try Self.makeDirectory(root + "/sub")
            await Self.reports(reports) { count(root + "/sub") == 1 }

            // Inside the tree, over that directory: the same.
            try #require(mount("tmpfs", root + "/sub", "tmpfs", 0, "size=1m,mode=0700") == 0, "errno \(errno)")
            defer { umount2(root + "/sub", Int32(MNT_DETACH)) }
            await Self.reports(reports) { count(root + "/sub") == 2 }
            try Self.makeDirectory(root + "/sub/deeper")
            await Self.reports(reports) { count(root + "/sub/deeper") == 1 }

            // Unmounted, both: what the mounts held is no longer watched, and the directories they covered
            // are seen again. (The root's parent is watched too, for the root's name, as for a root that
            // went away: inotify reports an unmounted root as gone.)
            #expect(umount2(root + "/sub", 0) == 0)
            #expect(umount2(root, 0) == 0, "errno \(errno)")
            await Self.reports(reports) {
                watcher.watchedDirectoryPaths.filter { $0 != volume.path } == [root, root + "/old"]
            }
            try Self.makeDirectory(root + "/old/again")
            await Self.reports(reports) { count(root + "/old/again") == 1 }
        }

        @Test("a directory bound over the watched root, then unbound: each counts as a change")
        func boundOverAndUnbound() async throws {
            let (volume, root, watcher, reports, watch) = try Self.watchedTree()
            defer { withExtendedLifetime(volume) {} }
            defer { watch.cancel() }
            let source = volume.path + "/source"
            try Self.makeDirectory(source)
            try #require(mount(source, root, nil, UInt(MS_BIND), nil) == 0, "errno \(errno)")
            defer { umount2(root, Int32(MNT_DETACH)) }
            // The mount's one report comes after the new directory's watch is added.
            #expect(await reports.next())
            #expect(watcher.watchedDirectoryPaths.filter { $0 == root }.count == 2)
            // The bind mount's source is not unmounted (no inotify event says anything): only the mount
            // table's change shows the covered directory again.
            #expect(umount2(root, 0) == 0, "errno \(errno)")
            #expect(await reports.next())
            try Self.makeDirectory(root + "/old/again")
            await Self.reports(reports) { watcher.watchedDirectoryPaths.contains(root + "/old/again") }
        }

        @Test("an overflow of the kernel's queue counts as a change, and directories made meanwhile are watched")
        func overflow() async throws {
            let volume = try TmpfsVolume(size: 4 << 20)
            let root = volume.path + "/watched"
            try Self.makeDirectory(root)
            let setting = "/proc/sys/fs/inotify/max_queued_events"
            let previous = try String(contentsOfFile: setting, encoding: .utf8).trimmingCharacters(
                in: .whitespacesAndNewlines)
            // The limit is read when an instance is made: lowered only around making this one.
            try "8".write(toFile: setting, atomically: false, encoding: .utf8)
            let made = Result { try InotifyWatcher(startsReading: false) }
            try previous.write(toFile: setting, atomically: false, encoding: .utf8)
            let watcher = try made.get()
            let reports = Reports()
            let watch = try watcher.watch(paths: [root], onChange: reports.onChange)
            defer { watch.cancel() }
            for index in 0..<50 { try Self.write(root + "/file-\(index)") }
            try Self.makeDirectory(root + "/late")
            watcher.startReading()
            #expect(await reports.next())
            #expect(watcher.overflowCount >= 1)
            #expect(watcher.watchedDirectoryCount == 2)
            try Self.write(root + "/late/seen")
            #expect(await reports.next())
        }

        @Test("a missing path refuses the watch naming it, and leaves nothing watched")
        func missingPath() throws {
            let volume = try TmpfsVolume(size: 1 << 20)
            try Self.makeDirectory(volume.path + "/present")
            let watcher = try InotifyWatcher()
            #expect(throws: SyncFileWatchError(path: volume.path + "/absent", reason: .missing)) {
                _ = try watcher.watch(paths: [volume.path + "/present", volume.path + "/absent"]) {}
            }
            #expect(watcher.watchedDirectoryCount == 0)
        }

        @Test("past the watch limit the submission fails with an error naming the limit and the path")
        func watchLimit() throws {
            guard let probe = NetnsSupport.probePath else {
                Issue.record("the syncgate-netns-probe executable was not found: run `swift build` first")
                return
            }
            let volume = try TmpfsVolume(size: 1 << 20)
            let root = volume.path + "/tree"
            var path = root
            for level in 0..<6 {
                try Self.makeDirectory(path)
                path += "/\(level)"
            }
            // In a user namespace of its own, the limit is the namespace's: lowered there, for the probe only.
            let script = "echo 3 > /proc/sys/user/max_inotify_watches && exec \"$0\" file-trigger \"$1\""
            let process = try SpawnedProcess(
                "/usr/bin/unshare", ["--user", "--map-root-user", "/bin/sh", "-c", script, probe, root])
            defer { process.stop() }
            process.closeInput()
            let (stdout, status) = try process.finish(before: .now + .seconds(30))
            #expect(status != 0)
            #expect(stdout.contains("fileTrigger"))
            #expect(stdout.contains("/proc/sys/fs/inotify/max_user_watches"))
            #expect(stdout.contains(root + "/0/1/2"))
            // With the default limit the same tree is watched.
            let watched = try SpawnedProcess.run(probe, ["file-trigger", root])
            #expect(watched.contains("watching"))
        }
    }
#endif
