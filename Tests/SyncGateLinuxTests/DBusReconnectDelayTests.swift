#if os(Linux)
    import Foundation
    import Glibc
    import SyncGateTesting
    import Testing

    @testable import SyncGateCore

    @testable import SyncGateLinux

    /// While the bus's socket file is absent and its creation watched, the timed retry is only a safety net
    /// and waits an hour; with a socket file present that refuses connections (a stale one), the creation
    /// of the next one may have been missed, so the retry keeps the short delay.
    @Suite(.timeLimit(.minutes(1)))
    struct DBusReconnectDelayTests {
        func follower(path: String, clock: ManualClock) -> DBusPropertyFollower {
            DBusPropertyFollower(
                targets: [.init(busName: "org.example.Test", path: "/org/example/Test", interface: "org.example.Test")],
                configuration: DBusFollowerConfiguration(
                    address: "unix:path=\(path)", clock: clock, reconnectDelay: .seconds(30),
                    reconnectDelayWhileWatching: .seconds(3600), initialWait: .zero),
                label: "test"
            ) { _ in }
        }

        @Test(arguments: [(false, 3600), (true, 30)])
        func timedRetry(socketFilePresent: Bool, seconds: Int) async throws {
            var template = Array("/tmp/syncgate-retry-XXXXXX".utf8CString)
            let base = String(cString: try #require(mkdtemp(&template)))
            defer { try? FileManager.default.removeItem(atPath: base) }
            let path = socketFilePresent ? "\(base)/bus" : "\(base)/run/dbus/bus"
            if socketFilePresent { #expect(FileManager.default.createFile(atPath: path, contents: Data())) }
            let clock = ManualClock()
            let follower = follower(path: path, clock: clock)
            defer { follower.stop() }
            follower.start(waitingUpTo: .zero)
            await clock.waitForSleepers(1)
            #expect(clock.sleeperDeadlines == [ManualClock.Instant(offset: .seconds(seconds))])
        }
    }
#endif
