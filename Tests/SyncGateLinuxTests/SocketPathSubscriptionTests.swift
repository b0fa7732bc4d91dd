#if os(Linux)
    import Dispatch
    import Foundation
    import Glibc
    import Testing

    @testable import SyncGateCore

    @testable import SyncGateLinux

    /// The waits for one socket path share one watch: each is told once when the socket appears, the
    /// watch outlives every wait but the last, and a stale watch is replaced for all of them.
    @Suite(.timeLimit(.minutes(1)))
    struct SocketPathSubscriptionTests {
        func temporaryDirectory() throws -> String {
            var template = Array("/tmp/syncgate-subscription-XXXXXX".utf8CString)
            guard let made = mkdtemp(&template) else { throw CocoaError(.fileWriteUnknown) }
            return String(cString: made)
        }

        /// A subscription whose appearances go to a stream.
        func subscribe(_ path: String) throws -> (SocketPathSubscription, AsyncStream<Void>) {
            let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
            let subscription = try #require(
                SocketPathSubscription(path: path, queue: DispatchQueue(label: "test.subscription")) {
                    continuation.yield()
                    continuation.finish()
                })
            return (subscription, stream)
        }

        /// How many times a subscription was told, once its stream has finished.
        func count(_ appearances: AsyncStream<Void>) async -> Int {
            var count = 0
            for await _ in appearances { count += 1 }
            return count
        }

        @Test func waitsForOnePathShareOneWatchAndAreEachToldOnce() async throws {
            let base = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: base) }
            let path = "\(base)/dbus/bus"
            let (first, firstAppearances) = try subscribe(path)
            let (second, secondAppearances) = try subscribe(path)
            let (third, _) = try subscribe(path)
            let watch = try #require(first.sharedWatch)
            #expect(second.sharedWatch === watch)
            #expect(third.sharedWatch === watch)
            // One wait ends: the others still share the same watch.
            third.cancel()
            #expect(third.sharedWatch == nil)
            #expect(!third.awaitsCreation)
            #expect(first.sharedWatch === watch)
            #expect(watch.isWatching)
            #expect(first.awaitsCreation && second.awaitsCreation)
            try FileManager.default.createDirectory(atPath: "\(base)/dbus", withIntermediateDirectories: false)
            #expect(FileManager.default.createFile(atPath: path, contents: Data()))
            // Each remaining wait is told exactly once (its stream finishes after one element).
            let (firstCount, secondCount) = (await count(firstAppearances), await count(secondAppearances))
            #expect(firstCount == 1 && secondCount == 1)
            #expect(!watch.isWatching)
            #expect(!first.awaitsCreation && !second.awaitsCreation)
            first.cancel()
            second.cancel()
        }

        @Test func theLastCancellationEndsTheWatchAndTheNextWaitStartsAnother() throws {
            let base = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: base) }
            let path = "\(base)/bus"
            let (first, _) = try subscribe(path)
            let (second, _) = try subscribe(path)
            let watch = try #require(first.sharedWatch)
            first.cancel()
            #expect(watch.isWatching)
            second.cancel()
            #expect(!watch.isWatching)
            let (third, _) = try subscribe(path)
            defer { third.cancel() }
            let fresh = try #require(third.sharedWatch)
            #expect(fresh !== watch)
            #expect(fresh.isWatching)
        }

        /// A socket already there at the start: the shared watch cannot report its creation, so the next
        /// wait replaces it with a fresh watch, which every wait shares and which reports the socket's
        /// next creation to each.
        @Test func aStaleWatchIsReplacedForEveryWait() async throws {
            let base = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: base) }
            let path = "\(base)/bus"
            #expect(FileManager.default.createFile(atPath: path, contents: Data()))
            let (first, firstAppearances) = try subscribe(path)
            let stale = try #require(first.sharedWatch)
            #expect(stale.socketWasPresent)
            #expect(!first.awaitsCreation)
            let (second, secondAppearances) = try subscribe(path)
            let fresh = try #require(second.sharedWatch)
            #expect(fresh !== stale)
            #expect(!stale.isWatching)
            #expect(first.sharedWatch === fresh)
            // Still present: the fresh watch too saw it at its start. The daemon makes it anew.
            try FileManager.default.removeItem(atPath: path)
            #expect(FileManager.default.createFile(atPath: path, contents: Data()))
            let (firstCount, secondCount) = (await count(firstAppearances), await count(secondAppearances))
            #expect(firstCount == 1 && secondCount == 1)
            first.cancel()
            second.cancel()
        }
    }
#endif
