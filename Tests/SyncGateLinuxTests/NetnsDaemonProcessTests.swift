#if os(Linux)
    import Foundation
    import Glibc
    import SyncGateTestSupport
    import Testing

    /// The processes `syncgate daemon` runs and the connections it holds, end to end with the built tool:
    /// a job's whole process group ends with it, a command does not outlive a crashed daemon into a second
    /// copy, waiting clients hold no slot, and a descriptor limit is met with refusals and log lines, not
    /// a spinning loop. Needs root; skips elsewhere unless SYNCGATE_REQUIRE_NETNS=1. Serialized: each test
    /// blocks the thread it runs on for seconds, and the rest of the suite needs the others.
    @Suite(
        .startsProcesses, .enabled(if: NetnsSupport.isEnabled, NetnsSupport.skipComment), .serialized,
        .timeLimit(.minutes(2))
    )
    struct NetnsDaemonProcessTests {
        /// Runs `body` with a fresh topology (online) and a started daemon, and always removes both.
        func withDaemon(_ body: (DaemonHarness, pid_t) throws -> Void) throws {
            let topology = try NetnsTopology()
            defer { topology.destroy() }
            try topology.configureIPv4(defaultRoute: true)
            let harness = try DaemonHarness(topology: topology)
            defer { harness.destroy() }
            let daemon = try harness.startDaemon()
            try body(harness, daemon.pid)
        }

        /// The process ids a job's script wrote to `path`, one a line, once there are `count`.
        func pids(in path: String, count: Int, harness: DaemonHarness) throws -> [pid_t] {
            var found: [pid_t] = []
            try harness.eventually("\(count) process ids in \(path)", within: .seconds(15)) {
                let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
                found = text.split(separator: "\n").compactMap { pid_t($0.split(separator: " ").last ?? "") }
                return found.count >= count
            }
            return found
        }

        /// How a job's run ends in ``aJobsWholeProcessGroupEndsWithIt(_:)``.
        enum Ending: String, CustomStringConvertible, CaseIterable {
            /// `cancel ID` while the shell waits; the shell dies of SIGTERM, its background child ignores it.
            case cancel
            /// `cancel ID`; the shell and its child both ignore SIGTERM (only SIGKILL ends them).
            case cancelIgnoredByAll
            /// `--timeout` while the shell waits (the run fails); the background child ignores SIGTERM.
            case timeout
            /// The shell exits 0 at once, leaving a background child that ignores SIGTERM.
            case exit

            var description: String { rawValue }
        }

        /// After `cancel`, `--timeout` or the command's own exit, no process of the job's group lives:
        /// SIGTERM goes to the group, then SIGKILL to the group after the kill grace (1 s here), even when
        /// the shell that led it has already been reaped.
        @Test(arguments: Ending.allCases)
        func aJobsWholeProcessGroupEndsWithIt(_ ending: Ending) throws {
            try withDaemon { harness, _ in
                let file = harness.directory + "/pids"
                let child = "(trap '' TERM; exec sleep 1000) & echo $! >> \(file); echo $$ >> \(file); "
                let script: String
                switch ending {
                case .cancel, .timeout: script = child + "wait"
                case .cancelIgnoredByAll: script = "trap '' TERM; " + child + "sleep 1000"
                case .exit: script = child + "exit 0"
                }
                // Long enough for the script to write both ids first on a loaded machine.
                let timeout = ending == .timeout ? ["--timeout", "6s"] : []
                let submitted = try harness.client(
                    ["submit", "--require", "none"] + timeout + ["--", "sh", "-c", script])
                #expect(submitted.status == 0, "\(submitted)")
                let id = submitted.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                let pids = try pids(in: file, count: 2, harness: harness)
                if ending == .cancel || ending == .cancelIgnoredByAll {
                    #expect(try harness.client(["cancel", id]).status == 0)
                }
                let expected: String =
                    switch ending {
                    case .cancel, .cancelIgnoredByAll: "cancelled"
                    case .timeout: "failed"
                    case .exit: "succeeded"
                    }
                try harness.eventually("job \(id) is \(expected)", within: .seconds(20)) {
                    try harness.job(id)["state"] as? String == expected
                }
                // The run ends only once its group has: nothing of it lives when the job has ended.
                for pid in pids {
                    #expect(!ProcessCensus.isLiving(pid), "process \(pid) of job \(id) outlived it")
                }
                for pid in pids where ProcessCensus.isLiving(pid) { kill(pid, SIGKILL) }
                #expect(try harness.stopDaemon() == 0)
            }
        }

        /// A process that leaves the job's group (`setsid`) and keeps the job's stdout and stderr open
        /// does not keep the daemon's pipes, descriptors and reader threads: they are closed when the job
        /// ends, and the daemon's descriptor and thread counts return to what they were.
        @Test func aJobsPipesAreClosedWhenItEndsEvenIfAnEscapedProcessHoldsThem() throws {
            try withDaemon { harness, daemon in
                let file = harness.directory + "/escaped"
                let baseline = ProcessCensus.ownResources(daemon)
                let before = ProcessCensus.summary(daemon)
                let result = try harness.client(
                    [
                        "submit", "--require", "none", "--wait", "--", "sh", "-c",
                        // The command exits only once the escaping process has left its group (it writes
                        // its pid after setsid), so the job's end cannot catch it still in the group.
                        "setsid sh -c 'echo $$ > \(file).new; mv \(file).new \(file); exec sleep 1000' & "
                            + "while [ ! -s \(file) ]; do sleep 0.01; done",
                    ],
                    within: .seconds(20))
                let escaped = try pids(in: file, count: 1, harness: harness)
                defer { for pid in escaped { kill(pid, SIGKILL) } }
                #expect(result.status == 0, "\(result)")
                #expect(escaped.allSatisfy(ProcessCensus.isLiving), "the escaped process is the test's premise")
                let settled: Void? = try? harness.eventually(
                    "the daemon's descriptors and threads are back", within: .seconds(20)
                ) {
                    ProcessCensus.isWithin(baseline, daemon)
                }
                #expect(settled != nil, "before: \(before); now: \(ProcessCensus.summary(daemon))")
                #expect(try harness.stopDaemon() == 0)
            }
        }

        /// After `kill -9` of the daemon, the command it ran dies with it (`PR_SET_PDEATHSIG`), and what
        /// the command left in its group is stopped by the next daemon before it runs the job again: at no
        /// time do two copies of the job run.
        @Test func aCommandDoesNotOutliveAKilledDaemonIntoASecondCopy() throws {
            try withDaemon { harness, _ in
                let marker = harness.directory + "/marker"
                let script = "echo started $$ >> \(marker); sleep 1000 & echo child $! >> \(marker); wait"
                let submitted = try harness.client(["submit", "--require", "none", "--", "sh", "-c", script])
                let id = submitted.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                let first = try pids(in: marker, count: 2, harness: harness)
                defer { for pid in first where ProcessCensus.isLiving(pid) { kill(pid, SIGKILL) } }
                try harness.killDaemon()
                try harness.eventually("the killed daemon's command \(first[0]) died with it", within: .seconds(10)) {
                    !ProcessCensus.isLiving(first[0])
                }
                try harness.startDaemon()
                let both = try pids(in: marker, count: 4, harness: harness)
                defer { for pid in both where ProcessCensus.isLiving(pid) { kill(pid, SIGKILL) } }
                let text = try String(contentsOfFile: marker, encoding: .utf8)
                let starts = text.split(separator: "\n").filter { $0.hasPrefix("started") }.count
                #expect(starts == 2, "\(text)")
                // The second copy started: nothing of the first lives.
                for pid in first {
                    #expect(!ProcessCensus.isLiving(pid), "process \(pid) of the first run lives beside the second")
                }
                #expect(harness.logText.contains("the command of the previous daemon still runs"), "\(harness.logText)")
                #expect(try harness.client(["cancel", id]).status == 0)
                try harness.eventually("the second run ended", within: .seconds(20)) {
                    !both.contains(where: ProcessCensus.isLiving)
                }
                #expect(try harness.stopDaemon() == 0)
            }
        }

        /// One request line of `submit` for a job that waits for a condition never set.
        static func waitingSubmit(key: String) -> [UInt8] {
            let request =
                #"{"version":1,"type":"submit","submission":{"command":["true"],"workingDirectory":"/","#
                + #""require":"none","conditions":["never"],"tags":[],"uniqueKey":"\#(key)","retries":0,"#
                + #""stopOnLoss":false,"wait":true}}"#
            return Array((request + "\n").utf8)
        }

        /// Sends `bytes` on a new connection and reads one line back, within `timeout`; the caller keeps
        /// (and closes) the connection.
        static func ask(_ harness: DaemonHarness, _ bytes: [UInt8], within timeout: Duration = .seconds(10)) throws
            -> (Int32, String)
        {
            let descriptor = try harness.connect()
            // A refusal may come (and the daemon close its end) before the request is sent: read it anyway.
            _ = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            let deadline = ContinuousClock.now + timeout
            var line: [UInt8] = []
            var byte: UInt8 = 0
            while true {
                let left = deadline - .now
                var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                let milliseconds = Int32(max(left.components.seconds * 1000, 0) + 1)
                guard left > .zero, poll(&entry, 1, milliseconds) > 0, recv(descriptor, &byte, 1, 0) == 1 else {
                    close(descriptor)
                    throw NetnsError(message: "no line within \(timeout); got \(String(decoding: line, as: UTF8.self))")
                }
                if byte == UInt8(ascii: "\n") { return (descriptor, String(decoding: line, as: UTF8.self)) }
                line.append(byte)
            }
        }

        /// More `submit --wait` clients than the daemon serves connections at once all wait (up to the
        /// waiting limit; one more is refused and queues nothing), `jobs`, `submit` and `cancel` still work
        /// meanwhile, and once the waiting clients hang up, the daemon's descriptors and threads are back to
        /// what they were before.
        @Test func waitingClientsHoldNoSlotAndAreFreedWhenTheyHangUp() throws {
            try withDaemon { harness, daemon in
                let baseline = ProcessCensus.ownResources(daemon)
                let before = ProcessCensus.summary(daemon)
                var waiting: [Int32] = []
                defer { for descriptor in waiting { close(descriptor) } }
                var ids: Set<String> = []
                // 256 may wait at once (docs/daemon-protocol.md, "Waiting clients"), four times the 64
                // connections served at once.
                for _ in 0..<256 {
                    let (descriptor, line) = try Self.ask(harness, Self.waitingSubmit(key: "never"))
                    waiting.append(descriptor)
                    let answer = try #require(
                        try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
                    #expect(answer["ok"] as? Bool == true, "\(line)")
                    ids.insert(answer["id"] as? String ?? "")
                }
                #expect(ids.count == 1, "\(ids)")
                // One more is refused before anything is queued.
                let (extra, refusal) = try Self.ask(harness, Self.waitingSubmit(key: "other"))
                close(extra)
                #expect(refusal.contains("too many clients are waiting (256); nothing was queued"), "\(refusal)")
                #expect(try harness.jobs().count == 1)
                let jobs = try harness.client(["jobs"])
                #expect(jobs.status == 0, "\(jobs)")
                let other = try harness.client(["submit", "--require", "none", "--condition", "never", "--", "true"])
                #expect(other.status == 0, "\(other)")
                let cancelled = try harness.client([
                    "cancel", other.stdout.trimmingCharacters(in: .whitespacesAndNewlines),
                ])
                #expect(cancelled.stdout == "cancelled 1 job\n", "\(cancelled)")
                for descriptor in waiting { close(descriptor) }
                waiting = []
                let settled: Void? = try? harness.eventually(
                    "the daemon's descriptors and threads are back", within: .seconds(20)
                ) {
                    ProcessCensus.isWithin(baseline, daemon)
                }
                #expect(settled != nil, "before: \(before); now: \(ProcessCensus.summary(daemon))")
                // The job still waits; a new waiter still gets its outcome.
                let waiter = try harness.startClient([
                    "submit", "--require", "none", "--condition", "never", "--unique", "never", "--wait", "--", "true",
                ])
                let id = try waiter.nextLine(within: .seconds(10))
                #expect(ids == [id])
                #expect(try harness.client(["set-condition", "never", "on"]).status == 0)
                let (_, status) = try waiter.finish(before: .now + .seconds(20))
                #expect(status == 0, "\(waiter.stderrText)")
                #expect(try harness.stopDaemon() == 0)
            }
        }

        /// With no descriptor left (its limit lowered under it), the daemon refuses each client with a
        /// line that says so, logs the condition once, uses next to no CPU time meanwhile, logs a job that
        /// cannot start for want of descriptors with the reason, and serves again once descriptors are
        /// free.
        @Test func aDescriptorLimitIsMetWithRefusalsNotASpin() throws {
            try withDaemon { harness, daemon in
                let idle = ProcessCensus.ownResources(daemon)
                let queued = try harness.client([
                    "submit", "--require", "none", "--condition", "go", "--name", "starved", "--", "true",
                ])
                let id = queued.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                let jobs = Array(#"{"version":1,"type":"jobs"}"#.utf8) + [UInt8(ascii: "\n")]
                // The limit at the lowest free descriptor leaves none to allocate once the daemon has closed
                // the submit's connection (it may close it just after its client has read the answer), so
                // the limit is set once the daemon holds no more than before it. Set lower (as it was, again
                // and again, while the daemon refused a client), it may take the descriptor the daemon
                // keeps in reserve to refuse with, and the daemon can then answer no one.
                try harness.eventually("the daemon has closed the submit's connection", within: .seconds(10)) {
                    ProcessCensus.isWithin(idle, daemon)
                }
                let lowestFree = ProcessCensus.lowestFree(daemon)
                let limits = try ProcessCensus.setDescriptorLimit(daemon, soft: lowestFree)
                defer { ProcessCensus.restoreDescriptorLimit(daemon, limits) }
                try harness.eventually("the daemon refuses clients for want of descriptors", within: .seconds(10)) {
                    let answers = try (0..<2).map { _ in
                        let (descriptor, line) = try Self.ask(harness, jobs)
                        close(descriptor)
                        return line
                    }
                    return answers[1].contains("no file descriptor free")
                }
                let ticks = ProcessCensus.cpuTicks(daemon)
                var refused = 0
                for _ in 0..<40 {
                    let (descriptor, line) = try Self.ask(harness, jobs)
                    close(descriptor)
                    if line.contains("no file descriptor free") { refused += 1 }
                }
                #expect(refused == 40, "\(refused) of 40 refused")
                let used = ProcessCensus.cpuTicks(daemon) - ticks
                // Each refusal costs the daemon well under a millisecond; a loop spinning on accept() would burn
                // CPU time for as long as the clients took.
                #expect(used * 2 < ProcessCensus.ticksPerSecond, "\(used) ticks of CPU time for 40 refusals")
                // Once per episode: an episode ends when a connection is accepted normally again.
                let episodes = harness.logText.components(
                    separatedBy: "cannot accept a connection: Too many open files")
                let ended = harness.logText.components(separatedBy: "accepting connections again")
                #expect(episodes.count == ended.count + 1, "\(harness.logText)")

                // Two more descriptors: clients are served again, but a command needs more to start.
                _ = try ProcessCensus.setDescriptorLimit(daemon, soft: lowestFree + 2)
                try harness.eventually("set-condition is served", within: .seconds(10)) {
                    try harness.client(["set-condition", "go", "on"]).status == 0
                }
                try harness.eventually("the daemon logs why job \(id) could not start", within: .seconds(10)) {
                    harness.logText.contains("job \(id) (starved) run 1: the command could not start: ")
                }
                #expect(harness.logText.contains("Too many open files"))
                ProcessCensus.restoreDescriptorLimit(daemon, limits)
                try harness.eventually("the daemon serves again", within: .seconds(10)) {
                    try harness.client(["jobs"]).status == 0
                }
                #expect(harness.logText.contains("accepting connections again"))
                #expect(try harness.stopDaemon() == 0)
            }
        }
    }
#endif
