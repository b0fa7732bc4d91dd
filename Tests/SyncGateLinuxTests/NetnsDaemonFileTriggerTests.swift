#if os(Linux)
    import Foundation
    import Glibc
    import SyncGateTestSupport
    import Testing

    /// File-triggered jobs of `syncgate daemon` end to end (`submit --on-change DIR --quiet 1s`), on a
    /// real directory and the real inotify: a burst of writes runs the command once, after the quiet
    /// period; another change runs it once more; a change while the namespace has no route waits for the
    /// network; and a change made while the daemon was killed is noticed when it starts again. Needs root
    /// and iproute2; skips elsewhere unless SYNCGATE_REQUIRE_NETNS=1.
    @Suite(.startsProcesses, .enabled(if: NetnsSupport.isEnabled, NetnsSupport.skipComment), .timeLimit(.minutes(3)))
    struct NetnsDaemonFileTriggerTests {
        static func date(_ text: Any?) -> Date? {
            guard let text = text as? String else { return nil }
            if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) {
                return date
            }
            return try? Date(text, strategy: .iso8601)
        }

        static func write(_ path: String) throws {
            try Data("change".utf8).write(to: URL(fileURLWithPath: path))
        }

        @Test func aFileTriggeredJobRunsOncePerQuietBurstWaitsForTheNetworkAndNoticesChangesWhileDown() throws {
            let topology = try NetnsTopology()
            defer { topology.destroy() }
            try topology.configureIPv4(defaultRoute: true)
            let harness = try DaemonHarness(topology: topology)
            defer { harness.destroy() }
            try harness.startDaemon()
            let watched = harness.directory + "/watched"
            try FileManager.default.createDirectory(atPath: watched + "/sub", withIntermediateDirectories: true)

            let submitted = try harness.client([
                "submit", "--on-change", watched, "--quiet", "1s", "--require", "network", "--name", "mirror",
                "--", "true",
            ])
            #expect(submitted.status == 0, "\(submitted)")
            let id = submitted.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            try #require(!id.isEmpty)
            let listed = try harness.job(id)
            #expect(listed["onChange"] as? [String] == [watched])
            #expect(listed["quietSeconds"] as? Double == 1)
            #expect(listed["fileWait"] as? String == "change")
            let table = try harness.client(["jobs"]).stdout
            #expect(table.contains("on change of \(watched)"), "\(table)")

            // A burst of 100 writes, some in a subdirectory: one run, a quiet period after the last write.
            for index in 0..<100 { try Self.write(watched + (index % 2 == 0 ? "/f\(index)" : "/sub/f\(index)")) }
            let lastWrite = Date()
            try harness.eventually("the burst ran the job", within: .seconds(40)) { try harness.runs(id).count == 1 }
            let first = try #require(try harness.runs(id).first)
            let started = try #require(Self.date(first["startedAt"]))
            #expect(started >= lastWrite.addingTimeInterval(0.9), "\(first), last write \(lastWrite)")
            try harness.eventually("it waits for a change again", within: .seconds(40)) {
                try harness.job(id)["fileWait"] as? String == "change"
            }
            #expect(try harness.runs(id).count == 1)

            // Another change: one more run.
            try Self.write(watched + "/sub/again")
            try harness.eventually("the change ran the job", within: .seconds(40)) { try harness.runs(id).count == 2 }
            try harness.eventually("it waits for a change again", within: .seconds(40)) {
                try harness.job(id)["fileWait"] as? String == "change"
            }

            // Offline: the change waits for the network, then runs once it returns.
            try topology.inObserved("route del default")
            try Self.write(watched + "/offline")
            try harness.eventually("the run waits for the network", within: .seconds(40)) {
                let job = try harness.job(id)
                return job["state"] as? String == "waiting"
                    && (job["waitingFor"] as? [String] ?? []).contains("network")
            }
            #expect(try harness.runs(id).count == 2)
            try topology.inObserved("route add default via 10.200.0.1 dev v0")
            try harness.eventually("the run started online", within: .seconds(40)) { try harness.runs(id).count == 3 }
            try harness.eventually("it waits for a change again", within: .seconds(40)) {
                try harness.job(id)["fileWait"] as? String == "change"
            }

            // A change made while the daemon is killed is noticed when it starts again.
            try harness.killDaemon()
            try Self.write(watched + "/sub/while-down")
            try harness.startDaemon()
            try harness.eventually("the change made while down ran the job", within: .seconds(40)) {
                try harness.runs(id).count == 4
            }
            try harness.eventually("it waits for a change again", within: .seconds(40)) {
                try harness.job(id)["fileWait"] as? String == "change"
            }
            #expect(try harness.runs(id).count == 4)
        }
    }
#endif
