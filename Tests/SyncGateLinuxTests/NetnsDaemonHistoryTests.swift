#if os(Linux)
    import Foundation
    import Glibc
    import SyncGateTestSupport
    import Testing

    /// What `syncgate jobs --all` promises about finished jobs: the newest 100 of those finished since the
    /// daemon started, while `logs ID` still reads an older one. The built tool as the daemon inside a
    /// network namespace. Needs root and iproute2; skips elsewhere unless SYNCGATE_REQUIRE_NETNS=1.
    @Suite(.startsProcesses, .enabled(if: NetnsSupport.isEnabled, NetnsSupport.skipComment), .timeLimit(.minutes(3)))
    struct NetnsDaemonHistoryTests {
        @Test func jobsAllListsTheNewestHundredAndLogsReadsOlderOnes() throws {
            let topology = try NetnsTopology()
            defer { topology.destroy() }
            let harness = try DaemonHarness(topology: topology)
            defer { harness.destroy() }
            try harness.startDaemon()
            var ids: [String] = []
            for index in 0..<103 {
                let submitted = try harness.client(
                    ["submit", "--require", "none", "--name", "job\(index)", "--", "true"])
                try #require(submitted.status == 0, "\(submitted)")
                ids.append(submitted.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            try harness.eventually("every job finished", within: .seconds(60)) {
                try harness.jobs().values.allSatisfy { $0["state"] as? String == "succeeded" }
                    && harness.jobs().count == 100
            }
            // The three that finished first are left out: among the first jobs submitted (four run at
            // once, so which three is up to the processes' timing).
            let missing = Set(ids).subtracting(try harness.jobs().keys)
            #expect(missing.count == 3 && missing.isSubset(of: ids.prefix(8)), "\(missing)")
            for id in missing {
                let runs = try harness.runs(id)
                #expect(runs.count == 1, "\(id): \(runs)")
            }
            #expect(try harness.stopDaemon() == 0)
        }
    }
#endif
