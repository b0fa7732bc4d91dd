#if os(Linux)
    import Foundation
    import Glibc
    import SyncGateTestSupport
    import Testing

    /// `syncgate submit --relax` end to end: the built tool as the daemon inside a network namespace, killed
    /// with SIGKILL and restarted on the same state directory while a relaxed job waits. Needs root and
    /// iproute2; skips elsewhere unless SYNCGATE_REQUIRE_NETNS=1.
    @Suite(.startsProcesses, .enabled(if: NetnsSupport.isEnabled, NetnsSupport.skipComment), .timeLimit(.minutes(3)))
    struct NetnsDaemonRelaxTests {
        /// A job waiting for an app condition nobody sets, relaxed after 4 s: the daemon is killed before
        /// the instant and restarted; the job runs exactly once, not before its instant, and the wait
        /// before the kill counts.
        @Test func aRelaxedJobRunsOnceAfterItsInstantAcrossAKill() throws {
            let topology = try NetnsTopology()
            defer { topology.destroy() }
            let harness = try DaemonHarness(topology: topology)
            defer { harness.destroy() }
            try topology.configureIPv4(defaultRoute: true)
            try harness.startDaemon()
            let runs = harness.directory + "/runs"
            let submittedAt = Date().timeIntervalSince1970
            let submitted = try harness.client([
                "submit", "--require", "network", "--condition", "window-open", "--relax", "window-open=4s",
                "--name", "relaxed", "--", "sh", "-c", "date +%s.%N >> \(runs)",
            ])
            #expect(submitted.status == 0, "\(submitted)")
            let id = submitted.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            let job = try harness.job(id)
            let relaxations = try #require(job["relaxations"] as? [[String: Any]], "\(job)")
            #expect(relaxations.first?["relaxed"] as? String == "condition window-open")
            #expect(relaxations.first?["afterSeconds"] as? Double == 4)
            let table = try harness.client(["jobs"])
            #expect(table.stdout.contains("RELAXES"), "\(table)")
            // "dropped in 4s" until the instant, "dropped" after it (a loaded machine may be past it here).
            #expect(table.stdout.contains("window-open dropped"), "\(table)")

            try harness.killDaemon()
            try harness.startDaemon()
            try harness.eventually("the relaxed job succeeded after the restart", within: .seconds(40)) {
                try harness.job(id)["state"] as? String == "succeeded"
            }
            let lines = try String(contentsOfFile: runs, encoding: .utf8).split(separator: "\n")
            try #require(lines.count == 1, "\(lines)")
            let ranAt = try #require(Double(lines[0]), "\(lines)")
            #expect(ranAt >= submittedAt + 4, "ran \(ranAt - submittedAt) s after the submit")
            #expect(try harness.runs(id).count == 1)
            #expect(try harness.stopDaemon() == 0)
            // Still one run: the job left the store when it succeeded.
            try harness.startDaemon()
            #expect(try harness.jobs().isEmpty)
            #expect(try String(contentsOfFile: runs, encoding: .utf8).split(separator: "\n").count == 1)
            #expect(try harness.stopDaemon() == 0)
        }
    }
#endif
