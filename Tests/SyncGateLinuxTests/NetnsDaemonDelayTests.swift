#if os(Linux)
    import Foundation
    import Glibc
    import SyncGateTestSupport
    import Testing

    /// `syncgate jobs` says when a delayed job's delay ends (`delayedUntil`, the NEXT column), for the
    /// built tool as the daemon inside a network namespace, and the same instant after the daemon was
    /// killed with SIGKILL and started again on its state directory. Needs root and iproute2; skips
    /// elsewhere unless SYNCGATE_REQUIRE_NETNS=1.
    @Suite(.startsProcesses, .enabled(if: NetnsSupport.isEnabled, NetnsSupport.skipComment), .timeLimit(.minutes(3)))
    struct NetnsDaemonDelayTests {
        @Test func aDelayedJobShowsWhenItsDelayEndsAcrossAKill() throws {
            let topology = try NetnsTopology()
            defer { topology.destroy() }
            let harness = try DaemonHarness(topology: topology)
            defer { harness.destroy() }
            try harness.startDaemon()
            let before = Date().timeIntervalSince1970
            let submitted = try harness.client(["submit", "--require", "none", "--delay", "2h", "--", "true"])
            #expect(submitted.status == 0, "\(submitted)")
            let after = Date().timeIntervalSince1970
            let id = submitted.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            let job = try harness.job(id)
            #expect(job["state"] as? String == "delayed", "\(job)")
            let until = try #require(Self.date(job["delayedUntil"]), "\(job)")
            // The delay runs from the submission; the time is rounded up to the second, from a wall-clock
            // reading taken as the daemon answers (hence the slack at the top).
            #expect(until >= before + 7_200 && until <= after + 7_200 + 2, "\(until - before)")
            let table = try harness.client(["jobs"])
            #expect(table.stdout.contains(job["delayedUntil"] as? String ?? "?"), "\(table)")

            try harness.killDaemon()
            try harness.startDaemon()
            let restored = try harness.job(id)
            #expect(restored["state"] as? String == "delayed", "\(restored)")
            let restoredUntil = try #require(Self.date(restored["delayedUntil"]), "\(restored)")
            // The same instant: the wait before the kill counts (the restore reads the wall clock again, and
            // each time is rounded up to the second: allow two seconds either way).
            #expect(abs(restoredUntil - until) <= 2, "\(restoredUntil - until)")
            #expect(try harness.stopDaemon() == 0)
        }

        /// An ISO 8601 date of `jobs --json` as seconds since 1970.
        static func date(_ value: Any?) -> Double? {
            guard let text = value as? String else { return nil }
            return ISO8601DateFormatter().date(from: text)?.timeIntervalSince1970
        }
    }
#endif
