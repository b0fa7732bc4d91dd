#if os(Linux)
    import Foundation
    import Glibc
    import SyncGateTestSupport
    import Testing

    /// `syncgate daemon` end to end: the built tool as the daemon inside a network namespace whose network
    /// the tests change from outside, and the built tool as its clients. Needs root and iproute2; skips
    /// elsewhere unless SYNCGATE_REQUIRE_NETNS=1. The commands of the README's "Queue shell work" section
    /// are those of ``theReadmeBackupRunsWhenTheRouteAppears()``.
    @Suite(.startsProcesses, .enabled(if: NetnsSupport.isEnabled, NetnsSupport.skipComment), .timeLimit(.minutes(1)))
    struct NetnsDaemonTests {
        /// How long a job may take to start after the route appears: the 200 ms debounce and a wide margin.
        static let perChange = Duration.seconds(3)

        /// Runs `body` with a fresh topology and daemon directory, and always removes both afterwards.
        func withDaemon(_ body: (NetnsTopology, DaemonHarness) throws -> Void) throws {
            let topology = try NetnsTopology()
            defer { topology.destroy() }
            let harness = try DaemonHarness(topology: topology)
            defer { harness.destroy() }
            try body(topology, harness)
        }

        /// The README's walk-through: a backup queued while offline waits for the network, a second submit
        /// with the same key waits for that same job, and the job runs within the debounce window of the
        /// default route appearing.
        @Test func theReadmeBackupRunsWhenTheRouteAppears() throws {
            try withDaemon { topology, harness in
                try topology.configureIPv4(defaultRoute: false)
                try harness.startDaemon()
                let home = harness.directory + "/home"
                try FileManager.default.createDirectory(
                    atPath: home + "/Documents", withIntermediateDirectories: true)
                try Data("notes".utf8).write(to: URL(fileURLWithPath: home + "/Documents/notes.txt"))
                let backup = [
                    "submit", "--require", "network", "--unique", "backup", "--name", "backup", "--", "tar", "-czf",
                    "backup.tar.gz", "Documents",
                ]
                let submitted = try harness.client(backup, in: home)
                #expect(submitted.status == 0, "\(submitted)")
                let id = submitted.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                try #require(!id.isEmpty)

                let listing = try harness.client(["jobs"])
                #expect(listing.status == 0)
                let line = listing.stdout.split(separator: "\n").first { $0.hasPrefix(id) }
                let row = try #require(line)
                #expect(row.contains("backup") && row.contains("waiting") && row.hasSuffix("network"), "\(row)")
                let job = try harness.job(id)
                #expect(job["state"] as? String == "waiting")
                #expect(job["waitingFor"] as? [String] == ["network"])
                #expect(job["attempts"] as? Int == 0)

                // The same key again: the existing job stays, and --wait waits for its outcome.
                let waiter = try harness.startClient(
                    ["submit", "--require", "network", "--unique", "backup", "--wait", "--"] + backup.suffix(3),
                    in: home)
                #expect(try waiter.nextLine(within: .seconds(5)) == id)
                #expect(waiter.isRunning, "the job ran before the route existed: \(harness.logText)")
                #expect(!FileManager.default.fileExists(atPath: home + "/backup.tar.gz"))

                try topology.inObserved("route add default via 10.200.0.1 dev v0")
                let added = ContinuousClock.now
                let (rest, status) = try waiter.finish(before: added + Self.perChange)
                #expect(status == 0, "stderr: \(waiter.stderrText); log: \(harness.logText)")
                #expect(rest.isEmpty)
                #expect(ContinuousClock.now - added < Self.perChange)
                #expect(FileManager.default.fileExists(atPath: home + "/backup.tar.gz"))

                let logs = try harness.client(["logs", id])
                #expect(logs.status == 0)
                #expect(logs.stdout.hasPrefix("=== run 1 (attempt 1), started "), "\(logs.stdout)")
                #expect(logs.stdout.contains(": exit status 0"), "\(logs.stdout)")
                let done = try harness.job(id)
                #expect(done["state"] as? String == "succeeded")
                #expect(done["lastExitStatus"] as? Int == 0)
                #expect(try harness.client(["jobs"]).stdout == "no jobs\n")
                #expect(try harness.stopDaemon() == 0)
            }
        }

        /// With `--stop-on-loss`, losing the route stops the command (SIGTERM) and requeues the job, which
        /// runs again when the route returns; `cancel` ends it.
        @Test func stopOnLossStopsAndRequeuesWhenTheRouteGoes() throws {
            try withDaemon { topology, harness in
                try topology.configureIPv4(defaultRoute: true)
                try harness.startDaemon()
                let submitted = try harness.client([
                    "submit", "--require", "network", "--stop-on-loss", "--name", "sync", "--", "sh", "-c",
                    "echo started; exec sleep 30",
                ])
                #expect(submitted.status == 0, "\(submitted)")
                let id = submitted.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                try harness.eventually("run 1 started") {
                    try harness.runs(id).first?["stdout"] as? String == "started\n"
                }
                #expect(try harness.job(id)["state"] as? String == "running")

                try topology.inObserved("route del default")
                try harness.eventually("the job is requeued", within: Self.perChange) {
                    let job = try harness.job(id)
                    return job["state"] as? String == "waiting" && job["waitingFor"] as? [String] == ["network"]
                }
                let first = try #require(try harness.runs(id).first)
                #expect(first["interrupted"] as? Bool == true)
                #expect(first["exitStatus"] as? Int == 128 + Int(SIGTERM))

                try topology.inObserved("route add default via 10.200.0.1 dev v0")
                try harness.eventually("run 2 started", within: Self.perChange) {
                    try harness.runs(id).count == 2 && harness.job(id)["state"] as? String == "running"
                }
                let cancelled = try harness.client(["cancel", id])
                #expect(cancelled.status == 0)
                #expect(cancelled.stdout == "cancelled 1 job\n")
                try harness.eventually("the job is cancelled") {
                    try harness.job(id)["state"] as? String == "cancelled"
                }
                #expect(try harness.stopDaemon() == 0)
            }
        }

        /// `kill -9` of the daemon while a command runs: after a restart the job runs exactly once more, as
        /// the same job, and its history keeps the cut-short run, recorded as interrupted.
        @Test func aKilledDaemonRerunsTheJobOnceAfterARestart() throws {
            try withDaemon { topology, harness in
                try topology.configureIPv4(defaultRoute: true)
                try harness.startDaemon()
                let counter = harness.directory + "/counter"
                let release = harness.directory + "/release"
                // Each run blocks until the test releases it, so the kill lands mid-run however slow the
                // machine. (The first run's process dies with the killed daemon: see
                // NetnsDaemonProcessTests.aCommandDoesNotOutliveAKilledDaemonIntoASecondCopy.)
                let submitted = try harness.client([
                    "submit", "--require", "network", "--name", "count", "--", "sh", "-c",
                    "echo run >> \(counter); while [ ! -e \(release) ]; do sleep 0.02; done; echo done",
                ])
                let id = submitted.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                try harness.eventually("the first run started") {
                    (try? String(contentsOfFile: counter, encoding: .utf8)) == "run\n"
                }
                try harness.killDaemon()
                try harness.startDaemon()
                try harness.eventually("the second run started", within: .seconds(10)) {
                    (try? String(contentsOfFile: counter, encoding: .utf8)) == "run\nrun\n"
                }
                #expect(FileManager.default.createFile(atPath: release, contents: nil))
                try harness.eventually("the job succeeded after the restart", within: .seconds(10)) {
                    try harness.job(id)["state"] as? String == "succeeded"
                }
                #expect(try String(contentsOfFile: counter, encoding: .utf8) == "run\nrun\n")
                let runs = try harness.runs(id)
                try #require(runs.count == 2, "\(runs)")
                #expect(runs[0]["interrupted"] as? Bool == true)
                #expect(runs[0]["exitStatus"] == nil)
                #expect(runs[1]["interrupted"] as? Bool == false)
                #expect(runs[1]["exitStatus"] as? Int == 0)
                #expect(runs[1]["stdout"] as? String == "done\n")
                // The rerun repeats attempt 1 (a crash is not a failure), and is the job's second run.
                #expect(try harness.job(id)["attempts"] as? Int == 1)
                #expect(try harness.job(id)["runs"] as? Int == 2)
                let attempts = runs.map { $0["attempt"] as? Int }
                #expect(attempts == [1, 1])
                #expect(harness.logText.contains("1 run(s) were cut short"))
                #expect(try harness.stopDaemon() == 0)
                // Still exactly two runs: the job left the store when it succeeded.
                try harness.startDaemon()
                #expect(try harness.jobs().isEmpty)
                #expect(try String(contentsOfFile: counter, encoding: .utf8) == "run\nrun\n")
                #expect(try harness.stopDaemon() == 0)
            }
        }

        /// The socket is closed to others (0600 in a 0700 directory); opened up by hand, a client of
        /// another uid still gets nothing but a refusal (`SO_PEERCRED`), and the queue is unchanged.
        @Test func aClientOfAnotherUserIsRefused() throws {
            let setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].first {
                FileManager.default.isExecutableFile(atPath: $0)
            }
            let path = try #require(setpriv, "setpriv (util-linux) is needed to run a client as another user")
            try withDaemon { topology, harness in
                try topology.configureIPv4(defaultRoute: false)
                try harness.startDaemon()
                var info = stat()
                #expect(stat(harness.socket, &info) == 0 && info.st_mode & 0o777 == 0o600)
                #expect(stat(harness.directory + "/run", &info) == 0 && info.st_mode & 0o777 == 0o700)
                let queued = try harness.client(["submit", "--name", "mine", "--", "true"])
                let id = queued.stdout.trimmingCharacters(in: .whitespacesAndNewlines)

                let nobody = [path, "--reuid=65534", "--regid=65534", "--clear-groups", "--"]
                let blocked = try harness.client(["jobs"], in: "/", prefix: nobody)
                #expect(blocked.status == 1)
                #expect(blocked.stderr.contains("cannot connect to the daemon on"), "\(blocked)")
                #expect(blocked.stderr.contains("Permission denied"), "\(blocked)")

                chmod(harness.directory + "/run", 0o711)
                chmod(harness.socket, 0o666)
                for arguments in [["jobs"], ["cancel", id], ["submit", "--", "true"], ["set-condition", "x", "on"]] {
                    let refused = try harness.client(arguments, in: "/", prefix: nobody)
                    #expect(refused.status == 1, "\(arguments)")
                    #expect(
                        refused.stderr == "syncgate: permission denied: uid 65534 may not use the daemon of uid 0\n",
                        "\(arguments): \(refused)")
                }
                #expect(try Array(harness.jobs().keys) == [id])
                #expect(try harness.job(id)["state"] as? String == "waiting")
                #expect(harness.logText.contains("refused a client with uid 65534"))
                #expect(try harness.stopDaemon() == 0)
            }
        }

        /// Hundreds of malformed requests, and clients that connect and stall, change nothing in the queue,
        /// and the daemon keeps answering well-formed requests meanwhile.
        @Test func aFloodOfMalformedRequestsLeavesTheQueueIntact() throws {
            try withDaemon { topology, harness in
                try topology.configureIPv4(defaultRoute: false)
                try harness.startDaemon()
                let queued = try harness.client(["submit", "--unique", "keep", "--name", "queued", "--", "true"])
                let id = queued.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                let before = try harness.job(id)

                // Stalled clients hold connections without a byte or without a newline.
                var stalled: [Int32] = []
                defer { for descriptor in stalled { close(descriptor) } }
                for index in 0..<16 {
                    let descriptor = try harness.connect()
                    if index % 2 == 1 { _ = "{\"version\":1,".withCString { send(descriptor, $0, 13, 0) } }
                    stalled.append(descriptor)
                }
                let started = ContinuousClock.now
                #expect(try harness.client(["jobs"], within: .seconds(2)).status == 0)
                #expect(ContinuousClock.now - started < .seconds(2))

                let oversized =
                    Array(#"{"version":1,"type":"jobs","pad":""#.utf8) + [UInt8](repeating: 0x61, count: 70_000)
                let malformed: [[UInt8]] = [
                    Array("\n".utf8), Array("garbage\n".utf8), Array("{\"version\":1}\n".utf8),
                    Array("{\"version\":2,\"type\":\"jobs\"}\n".utf8),
                    Array("{\"version\":1,\"type\":\"cancel\",\"id\":\"\"}\n".utf8),
                    Array("{\"version\":1,\"type\":\"submit\",\"submission\":{\"command\":[]}}\n".utf8),
                    Array("{\"version\":1,\"type\":\"cancel\",\"tag\":7}\n".utf8),
                    [0xFF, 0xFE, 0x00, 0x0A], Array("{\"version\":1,\"type\":\"jobs\"".utf8),
                    oversized,
                ]
                for round in 0..<30 {
                    for request in malformed {
                        let answer = try harness.exchange(request)
                        #expect(answer.contains("\"ok\":false"), "round \(round): \(answer)")
                    }
                }
                #expect(try harness.exchange(oversized, halfClose: false).contains("exceeds the limit"))

                let after = try harness.jobs()
                #expect(Array(after.keys) == [id])
                #expect(after[id]?["state"] as? String == before["state"] as? String)
                #expect(after[id]?["attempts"] as? Int == 0)
                let again = try harness.client(["submit", "--unique", "keep", "--", "true"])
                #expect(again.stdout == queued.stdout)
                // Appending to the key queues a second job, which runs after the first.
                let append = try harness.client([
                    "submit", "--unique", "keep", "--on-duplicate", "append", "--", "true",
                ])
                #expect(append.status == 0, "\(append)")
                let appended = append.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                #expect(appended != id)
                #expect(try Set(harness.jobs().keys) == [id, appended])
                #expect(try harness.job(appended)["state"] as? String == "waiting")
                #expect(try harness.stopDaemon() == 0)
            }
        }
        /// SIGTERM: running commands get the grace period, then SIGTERM, then SIGKILL (this one ignores
        /// SIGTERM); the run is recorded as interrupted and the job runs again after the restart.
        @Test func sigtermStopsCommandsAfterTheGraceAndTheJobRunsAgainAfterARestart() throws {
            try withDaemon { topology, harness in
                try topology.configureIPv4(defaultRoute: true)
                try harness.startDaemon()
                let counter = harness.directory + "/counter"
                let submitted = try harness.client([
                    "submit", "--require", "network", "--", "sh", "-c",
                    "trap '' TERM; echo run >> \(counter); if [ \"$(wc -l < \(counter))\" -eq 1 ]; then sleep 30; fi",
                ])
                let id = submitted.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                try harness.eventually("the first run started") {
                    (try? String(contentsOfFile: counter, encoding: .utf8)) == "run\n"
                }
                // A client waiting for the job hears that the daemon stopped, not that the job was cancelled.
                let waiter = try harness.startClient(["submit", "--unique", "stuck", "--wait", "--", "sleep", "30"])
                let waited = try waiter.nextLine(within: .seconds(5))
                let stopping = ContinuousClock.now
                #expect(try harness.stopDaemon() == 0)
                let (_, waiterStatus) = try waiter.finish(before: .now + .seconds(5))
                #expect(waiterStatus == 1)
                #expect(
                    waiter.stderrText
                        == "syncgate: the daemon stopped before job \(waited) ended; it runs again when the daemon starts\n"
                )
                // --grace 1s, then SIGTERM (ignored), then SIGKILL after --kill-grace 1s.
                #expect(ContinuousClock.now - stopping >= .seconds(2))
                let first = try #require(try RunLogFiles(directory: harness.state + "/runs/" + id).ended.first)
                #expect(first.interrupted == true)
                #expect(first.exitStatus == 128 + SIGKILL)
                #expect(harness.logText.contains("signal 15: stopping"))

                try harness.startDaemon()
                try harness.eventually("the job ran again and succeeded") {
                    try harness.job(id)["state"] as? String == "succeeded"
                }
                #expect(try harness.client(["cancel", "--unique", "stuck"]).stdout == "cancelled 1 job\n")
                #expect(try String(contentsOfFile: counter, encoding: .utf8) == "run\nrun\n")
                #expect(try harness.stopDaemon() == 0)
            }
        }

        /// A command's output is kept up to the cap, and it sees the clean environment, none of the
        /// daemon's own variables.
        @Test func outputIsCappedAndCommandsGetACleanEnvironment() throws {
            try withDaemon { topology, harness in
                try topology.configureIPv4(defaultRoute: false)
                try harness.startDaemon()
                let result = try harness.client([
                    "submit", "--require", "none", "--wait", "--", "sh", "-c",
                    "head -c 1100000 /dev/zero | tr '\\0' a; env >&2",
                ])
                #expect(result.status == 0, "\(result)")
                let id = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                let run = try #require(try harness.runs(id).first)
                let stdout = try #require(run["stdout"] as? String)
                let note = "\n[syncgate: output cut at 1048576 bytes]\n"
                #expect(stdout.utf8.count == 1_048_576 + note.utf8.count)
                #expect(stdout.hasSuffix(note))
                let names = Set(
                    (run["stderr"] as? String ?? "").split(separator: "\n").map { String($0.prefix { $0 != "=" }) })
                #expect(names.isSuperset(of: ["PATH", "LANG", "SYNCGATE_JOB_ID", "SYNCGATE_ATTEMPT"]), "\(names)")
                // What sh adds itself, and what the clean environment may pass on from the daemon's.
                let allowed: Set<String> = [
                    "PATH", "LANG", "SYNCGATE_JOB_ID", "SYNCGATE_ATTEMPT", "SYNCGATE_STOP_REASON_FILE", "HOME", "USER",
                    "LOGNAME", "XDG_RUNTIME_DIR", "PWD", "SHLVL", "_", "OLDPWD",
                ]
                #expect(names.isSubset(of: allowed), "\(names.subtracting(allowed))")
                #expect(try harness.stopDaemon() == 0)
            }
        }
        /// `set-condition` releases a job waiting for an app condition; `cancel --tag` and `cancel --unique`
        /// cancel what they select, and say when nothing matched.
        @Test func conditionsAndCancelSelectors() throws {
            try withDaemon { topology, harness in
                try topology.configureIPv4(defaultRoute: false)
                try harness.startDaemon()
                let waiter = try harness.startClient([
                    "submit", "--require", "none", "--condition", "window", "--wait", "--", "true",
                ])
                let id = try waiter.nextLine(within: .seconds(5))
                #expect(try harness.job(id)["waitingFor"] as? [String] == ["condition window"])
                #expect(try harness.client(["set-condition", "window", "on"]).status == 0)
                let (_, status) = try waiter.finish(before: .now + .seconds(5))
                #expect(status == 0, "\(waiter.stderrText)")

                let tagged = try harness.client(["submit", "--tag", "photos", "--", "true"])
                let keyed = try harness.client(["submit", "--unique", "nightly", "--", "true"])
                #expect(try harness.client(["cancel", "--tag", "photos"]).stdout == "cancelled 1 job\n")
                #expect(try harness.client(["cancel", "--unique", "nightly"]).stdout == "cancelled 1 job\n")
                let none = try harness.client(["cancel", "--tag", "photos"])
                #expect(none.status == 1)
                #expect(none.stdout == "cancelled 0 jobs\n")
                for result in [tagged, keyed] {
                    let job = try harness.job(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
                    #expect(job["state"] as? String == "cancelled")
                }
                #expect(try harness.stopDaemon() == 0)
            }
        }
    }
#endif
