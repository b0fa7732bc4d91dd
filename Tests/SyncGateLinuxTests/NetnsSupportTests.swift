#if os(Linux)
    import Foundation
    import Glibc
    import SyncGateTesting
    import SyncGateTestSupport
    import Testing

    /// The namespace bookkeeping of the real-kernel tests: a run killed midway leaves its namespaces, and
    /// the next run deletes them, and only them.
    @Suite("Netns support", .startsProcesses, .timeLimit(.minutes(1)))
    struct NetnsSupportTests {
        @Test(
            "a namespace name made by the tests names its creator; any other name names none",
            arguments: [
                ("sg123x4o", 123), ("sg9x12p", 9), ("sgcheck77", 77), ("sg123", nil), ("sgcheck77x1o", nil),
                ("sgx1o", nil), ("sg12y1o", nil), ("myns", nil), ("nssweep123x1o", nil), ("", nil),
            ] as [(String, pid_t?)])
        func creatorOfName(name: String, creator: pid_t?) {
            #expect(NetnsSupport.creator(ofNamespace: name) == creator)
        }

        @Test(
            "the sweep deletes the namespaces of test processes that are gone, and keeps every other",
            .enabled(if: NetnsSupport.isEnabled, NetnsSupport.skipComment))
        func sweepRemovesOnlyStale() throws {
            let ip = try #require(NetnsSupport.ipPath)
            let finished = try SpawnedProcess("/bin/true", [])
            _ = try finished.finish(before: .now + .seconds(30))
            let gone = finished.pid
            let stale = "sg\(gone)x1sweep"
            let own = NetnsSupport.uniqueName("sweep")
            let foreign = "nssweep\(getpid())"
            defer { for name in [stale, own, foreign] { _ = try? NetnsSupport.run(ip, ["netns", "del", name]) } }
            for name in [stale, own, foreign] { try NetnsSupport.run(ip, ["netns", "add", name]) }
            #expect(kill(gone, 0) == -1 && errno == ESRCH, "pid \(gone) was reused meanwhile")

            NetnsSupport.removeStaleNamespaces()

            let names = Set(
                try NetnsSupport.run(ip, ["netns", "list"]).split(separator: "\n").compactMap {
                    $0.split(separator: " ").first.map(String.init)
                })
            #expect(!names.contains(stale))
            #expect(names.contains(own))
            #expect(names.contains(foreign))
        }
    }
#endif
