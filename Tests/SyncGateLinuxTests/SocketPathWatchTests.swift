#if os(Linux)
    import Dispatch
    import Foundation
    import Glibc
    import Testing

    @testable import SyncGateCore

    @testable import SyncGateLinux

    /// The inotify wait for a bus socket: it follows the path down as directories appear and reports the
    /// socket's creation once, and nothing else.
    @Suite(.timeLimit(.minutes(1)))
    struct SocketPathWatchTests {
        func temporaryDirectory() throws -> String {
            var template = Array("/tmp/syncgate-watch-XXXXXX".utf8CString)
            guard let made = mkdtemp(&template) else { throw CocoaError(.fileWriteUnknown) }
            return String(cString: made)
        }

        @Test func reportsTheSocketOnceItsDirectoriesAndItAppear() async throws {
            let base = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: base) }
            let appearances = AsyncStream.makeStream(of: Void.self)
            let queue = DispatchQueue(label: "test.socket-watch")
            let watch = try #require(
                SocketPathWatch(path: "\(base)/run/dbus/bus", queue: queue) { appearances.continuation.yield() })
            defer { watch.cancel() }
            #expect(watch.isWatching)
            // Directories one by one, a file of another name, then the socket's name.
            try FileManager.default.createDirectory(atPath: "\(base)/run", withIntermediateDirectories: false)
            try FileManager.default.createDirectory(atPath: "\(base)/run/dbus", withIntermediateDirectories: false)
            #expect(FileManager.default.createFile(atPath: "\(base)/run/dbus/other", contents: Data()))
            #expect(watch.isWatching)
            #expect(FileManager.default.createFile(atPath: "\(base)/run/dbus/bus", contents: Data()))
            var iterator = appearances.stream.makeAsyncIterator()
            #expect(await iterator.next() != nil)
            // Reported once: the watch has ended.
            #expect(!watch.isWatching)
        }

        /// A socket file already there (a stale one whose daemon died) is not taken for a new one; its
        /// re-creation by the next daemon is.
        @Test func aSocketPresentAtTheStartCountsOnlyWhenCreatedAgain() async throws {
            let base = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: base) }
            #expect(FileManager.default.createFile(atPath: "\(base)/bus", contents: Data()))
            let appearances = AsyncStream.makeStream(of: Void.self)
            let watch = try #require(
                SocketPathWatch(path: "\(base)/bus", queue: DispatchQueue(label: "test.socket-watch")) {
                    appearances.continuation.yield()
                })
            defer { watch.cancel() }
            #expect(watch.socketWasPresent)
            #expect(watch.isWatching)
            try FileManager.default.removeItem(atPath: "\(base)/bus")
            #expect(FileManager.default.createFile(atPath: "\(base)/bus", contents: Data()))
            var iterator = appearances.stream.makeAsyncIterator()
            #expect(await iterator.next() != nil)
            #expect(!watch.isWatching)
        }

        @Test func directoriesMadeAllAtOnceAreFollowed() async throws {
            let base = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: base) }
            let appearances = AsyncStream.makeStream(of: Void.self)
            let watch = try #require(
                SocketPathWatch(path: "\(base)/a/b/c/bus", queue: DispatchQueue(label: "test.socket-watch")) {
                    appearances.continuation.yield()
                })
            defer { watch.cancel() }
            // mkdir -p, then the socket: the watch may see "a" created when b and c already exist.
            try FileManager.default.createDirectory(atPath: "\(base)/a/b/c", withIntermediateDirectories: true)
            #expect(FileManager.default.createFile(atPath: "\(base)/a/b/c/bus", contents: Data()))
            var iterator = appearances.stream.makeAsyncIterator()
            #expect(await iterator.next() != nil)
        }
    }
#endif
