#if os(Linux)
    import Foundation
    import Glibc
    import SyncGateTestSupport
    import Testing

    /// The daemon's promises of docs/daemon-protocol.md ("Promises") about what it keeps and reports of
    /// runs, and what a cancel means on a full disk, checked on the built tool: the daemon in a network
    /// namespace with a private state directory, its clients run as a user runs them. Needs root and
    /// iproute2 (the full disk a tmpfs); skips elsewhere unless SYNCGATE_REQUIRE_NETNS=1.
    @Suite(.startsProcesses, .enabled(if: NetnsSupport.isEnabled, NetnsSupport.skipComment), .timeLimit(.minutes(3)))
    struct NetnsDaemonPromiseTests {
        /// How long a route change may take to reach a job: the 200 ms debounce and a margin for a loaded
        /// machine (these tests check what is reported, not how fast).
        static let perChange = Duration.seconds(20)
        /// The documented bound of a job's kept output files (`RunLog.jobOutputLimit`).
        static let jobOutputLimit = 16 << 20

        /// Runs `body` with a fresh topology and daemon directory, and always removes both afterwards.
        func withDaemon(stateDirectory: String? = nil, _ body: (NetnsTopology, DaemonHarness) throws -> Void) throws {
            let topology = try NetnsTopology()
            defer { topology.destroy() }
            let harness = try DaemonHarness(topology: topology, stateDirectory: stateDirectory)
            defer { harness.destroy() }
            try body(topology, harness)
        }

        /// The bytes of the regular files under `path`.
        static func bytes(under path: String) -> Int {
            guard let walker = FileManager.default.enumerator(atPath: path) else { return 0 }
            var total = 0
            while let name = walker.nextObject() as? String {
                var info = stat()
                if lstat(path + "/" + name, &info) == 0 && info.st_mode & S_IFMT == S_IFREG {
                    total += Int(info.st_size)
                }
            }
            return total
        }

        /// A job writing 2 MiB of NUL bytes per run (1 MiB kept of each stream), retried 24 times: the
        /// state directory keeps at most the documented output per job, the daemon's memory stays flat
        /// while `logs` sends it all, the wire carries the output in base64 (4/3, not the sixfold of NULs
        /// in JSON text), and `logs` shows every run, the oldest without their output.
        @Test func aJobsKeptOutputIsBoundedAndLogsStreamsIt() throws {
            try withDaemon { topology, harness in
                try topology.configureIPv4(defaultRoute: false)
                try harness.startDaemon()
                let submitted = try harness.client([
                    "submit", "--require", "none", "--retries", "24", "--backoff", "0s", "--name", "big", "--",
                    "sh", "-c",
                    #"printf 'attempt %s\n' "$SYNCGATE_ATTEMPT"; head -c 2097152 /dev/zero; head -c 2097152 /dev/zero >&2; exit 3"#,
                ])
                #expect(submitted.status == 0, "\(submitted)")
                let id = submitted.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                try harness.eventually("the job failed after 25 runs", within: .seconds(120)) {
                    try harness.job(id)["state"] as? String == "failed"
                }
                let job = try harness.job(id)
                #expect(job["attempts"] as? Int == 25)
                #expect(job["runs"] as? Int == 25)

                let kept = Self.bytes(under: harness.state + "/runs/" + id)
                #expect(kept <= Self.jobOutputLimit + (64 << 10), "\(kept) bytes kept of job \(id)")
                #expect(kept >= 2 << 20, "the newest run's output is kept: \(kept) bytes")
                let before = try harness.memory("VmRSS")
                let peakBefore = try harness.memory("VmHWM")

                // The wire: a streamed answer of base64 lines, none larger than a 64 KiB chunk and its fields.
                let request = Array(#"{"version":1,"type":"logs","id":"\#(id)","stream":true}"#.utf8) + [10]
                let wire = try harness.exchange(request, within: .seconds(60))
                let lines = wire.split(separator: "\n")
                #expect(lines.count > 2)
                #expect((lines.map(\.utf8.count).max() ?? 0) < 70_000)
                #expect(wire.utf8.count <= kept * 4 / 3 + 100_000, "\(wire.utf8.count) bytes on the wire for \(kept)")
                #expect(lines.last?.contains("\"end\":25") == true, "\(lines.last ?? "")")

                let logs = try harness.client(["logs", id], within: .seconds(60))
                #expect(logs.status == 0, "\(logs.stderr)")
                let headers = logs.stdout.split(separator: "\n").filter { $0.hasPrefix("=== run ") }
                #expect(headers.count == 25)
                #expect(headers.first?.hasPrefix("=== run 1 (attempt 1), started ") == true)
                #expect(headers.first?.hasSuffix("(output dropped: only the newest runs' output is kept)") == true)
                #expect(headers.last?.hasPrefix("=== run 25 (attempt 25), started ") == true)
                #expect(headers.last?.contains(": exit status 3") == true, "\(headers.last ?? "")")
                #expect(logs.stdout.contains("--- stdout\nattempt 25\n\0\0\0"))

                let after = try harness.memory("VmRSS")
                let peak = try harness.memory("VmHWM")
                // A one-line reply holds every kept run's output, NUL bytes six times over in JSON; streamed,
                // the output passes a few chunks at a time, and the bounds leave room for a sanitizer's or an
                // allocator's overhead.
                #expect(after - before < 64 << 10, "VmRSS \(before) KiB before logs, \(after) KiB after")
                #expect(peak - peakBefore < 64 << 10, "VmHWM \(peakBefore) KiB before logs, \(peak) KiB after")
                #expect(try harness.stopDaemon() == 0)
            }
        }

        /// `--stop-on-loss` and a route deleted mid-run: the second run repeats attempt 1, and `jobs`,
        /// `logs` and `$SYNCGATE_ATTEMPT` say so (attempt 1, two runs); a failure's retry is attempt 2.
        @Test func aRequeuedRunRepeatsItsAttemptEverywhere() throws {
            try withDaemon { topology, harness in
                try topology.configureIPv4(defaultRoute: true)
                try harness.startDaemon()
                let submitted = try harness.client([
                    "submit", "--require", "network", "--stop-on-loss", "--name", "sync", "--", "sh", "-c",
                    #"echo "attempt $SYNCGATE_ATTEMPT"; exec sleep 30"#,
                ])
                let id = submitted.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                try harness.eventually("run 1 started") {
                    try harness.runs(id).first?["stdout"] as? String == "attempt 1\n"
                }
                try topology.inObserved("route del default")
                try harness.eventually("the job is requeued", within: Self.perChange) {
                    try harness.job(id)["state"] as? String == "waiting"
                }
                try topology.inObserved("route add default via 10.200.0.1 dev v0")
                try harness.eventually("run 2 started", within: Self.perChange) {
                    let runs = try harness.runs(id)
                    return runs.count == 2 && runs[1]["stdout"] as? String == "attempt 1\n"
                }
                let job = try harness.job(id)
                #expect(job["attempts"] as? Int == 1)
                #expect(job["runs"] as? Int == 2)
                let attempts = try harness.runs(id).map { $0["attempt"] as? Int }
                #expect(attempts == [1, 1])
                let table = try harness.client(["jobs"]).stdout.split(separator: "\n")
                #expect(table.first?.contains("ATTEMPT  RUNS") == true, "\(table)")
                let line = table.first { $0.hasPrefix(id) }
                let row = try #require(line).split(separator: " ")
                #expect(Array(row.prefix(5)) == [Substring(id), "sync", "running", "1", "2"], "\(row)")
                #expect(try harness.client(["cancel", id]).stdout == "cancelled 1 job\n")

                let retried = try harness.client(
                    [
                        "submit", "--require", "none", "--retries", "1", "--backoff", "0s", "--wait", "--", "sh", "-c",
                        #"echo "attempt $SYNCGATE_ATTEMPT"; exit 1"#,
                    ], within: .seconds(30))
                #expect(retried.status == 1)
                let failed = retried.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                #expect(try harness.job(failed)["attempts"] as? Int == 2)
                #expect(try harness.job(failed)["runs"] as? Int == 2)
                let failedRuns = try harness.runs(failed)
                let outputs = failedRuns.map { $0["stdout"] as? String }
                let failedAttempts = failedRuns.map { $0["attempt"] as? Int }
                #expect(outputs == ["attempt 1\n", "attempt 2\n"])
                #expect(failedAttempts == [1, 2])
                #expect(try harness.stopDaemon() == 0)
            }
        }

        /// The state directory on a tiny tmpfs, filled up under 800 queued jobs: `cancel --tag` counts only
        /// the cancels it wrote, says the rest are not on disk, and the daemon logs the failed writes. (The
        /// space the journal allocated ahead of its records, at most 4 KiB, and its last page have room for
        /// at most about 550 of the 15-byte `resolved` records, so some fail.)
        /// After a restart on the still-full disk, exactly the jobs not counted come back; after the disk
        /// is freed and another restart, still none of the counted ones.
        @Test func aCancelOnAFullDiskClaimsOnlyWhatItWrote() throws {
            let total = 800
            // Room for each job's run directory (a page or two of tmpfs each) before the disk is filled.
            let disk = try TinyDisk(bytes: 16 << 20)
            let state = disk.path + "/state"
            try withDaemon(stateDirectory: state) { topology, harness in
                try topology.configureIPv4(defaultRoute: false)
                try harness.startDaemon()
                var ids: [String] = []
                let submit =
                    Array(
                        (#"{"version":1,"type":"submit","submission":{"command":["true"],"workingDirectory":"/","#
                            + #""require":"network","conditions":[],"tags":["x"],"retries":0,"stopOnLoss":false,"#
                            + #""wait":false}}"#).utf8) + [10]
                for _ in 0..<total {
                    let answer = try harness.exchange(submit)
                    let object = try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any]
                    ids.append(try #require(object?["id"] as? String, "\(answer)"))
                }
                let filler = disk.fill()
                let cancel = try harness.client(["cancel", "--tag", "x"], within: .seconds(30))
                let counted = try #require(
                    Int(cancel.stdout.split(separator: " ").dropFirst().first ?? ""), "\(cancel)")
                #expect(counted < total, "\(cancel)")
                #expect(cancel.status == 1)
                #expect(
                    cancel.stderr.hasPrefix(
                        "syncgate: the cancel of \(total - counted) more jobs is not on disk yet ("),
                    "\(cancel)")
                #expect(cancel.stderr.contains("those jobs run again if the daemon restarts first"), "\(cancel)")
                // The daemon logs each failed write as the durable layer reports it.
                try harness.eventually("the failed writes are logged", within: .seconds(30)) {
                    harness.logText.contains("store: job ")
                        && harness.logText.contains("writing resolved (cancelled) failed")
                }

                try harness.killDaemon()
                try harness.startDaemon()
                let back = try harness.jobs()
                #expect(back.count == total - counted, "\(back.keys.sorted())")
                let allWaiting = back.values.allSatisfy { $0["state"] as? String == "waiting" }
                #expect(allWaiting)
                #expect(Set(back.keys).isSubset(of: Set(ids)))

                unlink(filler)
                #expect(try harness.stopDaemon() == 0)
                try harness.startDaemon()
                #expect(try harness.jobs().count == total - counted)
                let again = try harness.client(["cancel", "--tag", "x"], within: .seconds(30))
                #expect(again.status == (counted == total ? 1 : 0), "\(again)")
                #expect(again.stdout == "cancelled \(total - counted) job\(total - counted == 1 ? "" : "s")\n")
                #expect(again.stderr.isEmpty)
                #expect(try harness.stopDaemon() == 0)
                try harness.startDaemon()
                #expect(try harness.jobs().isEmpty)
                #expect(try harness.stopDaemon() == 0)
            }
        }

        /// A command that fails while the disk is full: the run log cannot write its run, yet
        /// `submit --wait` exits with the command's status (it exited 1, the status read back from the
        /// run log that had none), `jobs` and `logs` show the run from the daemon's memory, and the daemon
        /// logs why it is not on disk. The records of running commands are on a disk of their own: one
        /// that cannot be written keeps the command from starting at all (`JobLauncher`).
        @Test func aRunOnAFullDiskStillGivesItsExitStatus() throws {
            let disk = try TinyDisk(bytes: 4 << 20)
            let state = disk.path + "/state"
            let running = state + "/running"
            try FileManager.default.createDirectory(atPath: running, withIntermediateDirectories: true)
            try #require(mount("tmpfs", running, "tmpfs", 0, "size=1m,mode=0700") == 0, "mount: errno \(errno)")
            defer { umount2(running, Int32(MNT_DETACH)) }
            try withDaemon(stateDirectory: state) { topology, harness in
                try topology.configureIPv4(defaultRoute: false)
                try harness.startDaemon()
                let waiter = try harness.startClient([
                    "submit", "--require", "network", "--retries", "0", "--wait", "--", "sh", "-c", "exit 3",
                ])
                let id = try waiter.nextLine(within: .seconds(10))
                let filler = disk.fill()
                try topology.inObserved("route add default via 10.200.0.1 dev v0")
                let (_, status) = try waiter.finish(before: .now + Self.perChange)
                #expect(status == 3, "stderr: \(waiter.stderrText); log: \(harness.logText)")
                #expect(waiter.stderrText.contains("job \(id) failed: the command exited with status 3"))
                let job = try harness.job(id)
                #expect(job["state"] as? String == "failed")
                #expect(job["lastExitStatus"] as? Int == 3, "\(job)")
                #expect(job["runs"] as? Int == 1, "\(job)")
                let runs = try harness.runs(id)
                #expect(runs.count == 1 && runs.first?["exitStatus"] as? Int == 3, "\(runs)")
                let log = harness.logText
                for line in ["its start: cannot write ", "its end: cannot write "] {
                    #expect(log.contains("job \(id) (sh) run 1: the run log cannot record \(line)"), "\(log)")
                }
                #expect(log.contains("No space left on device"), "\(log)")
                unlink(filler)
                #expect(try harness.stopDaemon() == 0)
            }
        }
    }
#endif
