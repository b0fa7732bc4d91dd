#if os(Linux)
    import Foundation
    import Glibc
    import SyncGateCore
    import SyncGateTesting
    import SyncGateTestSupport
    import Testing

    /// `syncgate daemon` at its edges, end to end with the built tool: untrusted numbers on the wire, the
    /// socket's location and who the client trusts, what a daemon that cannot listen does, the order of
    /// its log, one rule for unknown ids, and what reaches a terminal. Needs root (other uids through
    /// `setpriv`, a network namespace); skips elsewhere unless SYNCGATE_REQUIRE_NETNS=1.
    @Suite(.startsProcesses, .enabled(if: NetnsSupport.isEnabled, NetnsSupport.skipComment), .timeLimit(.minutes(1)))
    struct NetnsDaemonEdgeTests {
        /// Runs `body` with a fresh topology and daemon directory, and always removes both afterwards.
        func withDaemon(_ body: (NetnsTopology, DaemonHarness) throws -> Void) throws {
            let topology = try NetnsTopology()
            defer { topology.destroy() }
            let harness = try DaemonHarness(topology: topology)
            defer { harness.destroy() }
            try body(topology, harness)
        }

        static let setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }

        /// `setpriv` arguments that run a command as `uid` (group the same number, no other groups).
        static func asUser(_ uid: uid_t) throws -> [String] {
            let path = try #require(setpriv, "setpriv (util-linux) is needed to run a process as another user")
            return [path, "--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", "--"]
        }

        /// A request line whose submission has `field` set to `value`.
        static func submitLine(_ field: String, _ value: String) -> [UInt8] {
            var submission: [String: Any] = [
                "command": ["true"], "workingDirectory": "/", "require": "none", "conditions": [String](),
                "tags": [String](), "retries": 1, "stopOnLoss": false, "wait": false,
            ]
            submission[field] = value
            if field == "flex" { submission["every"] = "1h" }
            let request: [String: Any] = ["version": 1, "type": "submit", "submission": submission]
            let data = (try? JSONSerialization.data(withJSONObject: request)) ?? Data()
            return Array(data) + [UInt8(ascii: "\n")]
        }

        /// A duration of 2562048h (or the same in minutes or seconds) in any duration field, or a too short
        /// period, is refused with the field named, and the daemon goes on answering; the command line
        /// refuses the same as a usage error before it asks the daemon.
        @Test func outOfRangeDurationsAreRefusedAndTheDaemonLives() throws {
            try withDaemon { topology, harness in
                try topology.configureIPv4(defaultRoute: false)
                let daemon = try harness.startDaemon()
                let cases: [(field: String, value: String, problem: String)] = [
                    ("delay", "2562048h", "longer than 8760h"),
                    ("deadline", "153722880m", "longer than 8760h"),
                    ("timeout", "9223372037s", "longer than 8760h"),
                    ("backoff", "2562048h", "longer than 8760h"),
                    ("every", "2562048h", "longer than 8760h"),
                    ("flex", "153722867280912930m", "longer than 8760h"),
                    ("every", "1ms", "shorter than the minimum period of 1m"),
                ]
                for (field, value, problem) in cases {
                    let answer = try harness.exchange(Self.submitLine(field, value))
                    #expect(answer.contains("\"ok\":false"), "\(field): \(answer)")
                    #expect(
                        answer.contains("invalid duration '\(value)' for field 'submission.\(field)': \(problem)"),
                        "\(field): \(answer)")
                    #expect(daemon.isRunning, "the daemon ended on \(field) \(value): \(harness.logText)")
                }
                // Refused by the daemon after decoding (an unknown requirement): nothing is left behind either.
                let requirement = try harness.exchange(Self.submitLine("require", "warp-drive"))
                #expect(requirement.contains("\"ok\":false") && requirement.contains("warp-drive"), "\(requirement)")
                let leftovers = try FileManager.default.contentsOfDirectory(atPath: harness.state + "/runs")
                #expect(leftovers.isEmpty, "run-log directories of refused submits: \(leftovers)")
                let cli = try harness.client(["submit", "--delay", "2562048h", "--", "true"])
                #expect(cli.status == 2, "\(cli)")
                #expect(
                    cli.stderr
                        == "syncgate: invalid duration '2562048h' for --delay: longer than 8760h (see 'syncgate submit --help')\n"
                )
                let every = try harness.client(["submit", "--every", "0s", "--", "true"])
                #expect(every.status == 2, "\(every)")
                #expect(every.stderr.hasPrefix("syncgate: invalid duration '0s' for --every: shorter than"))
                let jobs = try harness.client(["jobs"])
                #expect(jobs.status == 0 && jobs.stdout == "no jobs\n", "\(jobs)")
                #expect(daemon.isRunning)
                #expect(try harness.stopDaemon() == 0)
            }
        }

        /// Another user who creates `/tmp/syncgate-UID` first and listens there (the fallback location of a
        /// user without XDG_RUNTIME_DIR) gets nothing from that user's client: the client checks who
        /// listens before it sends a byte, and says so. The user's own daemon refuses that directory too.
        /// Clients that connect and send nothing hold every connection slot for the daemon's request
        /// deadline (5 s). A client that comes meanwhile is answered busy, and tries again until a slot is
        /// free, instead of failing at once with "too many connections".
        @Test func aClientWaitsForASlotWhileIdleConnectionsHoldThemAll() throws {
            try withDaemon { topology, harness in
                try topology.configureIPv4(defaultRoute: false)
                _ = try harness.startDaemon()
                var idle: [Int32] = []
                defer { for descriptor in idle { close(descriptor) } }
                for _ in 0..<64 { idle.append(try harness.connect()) }
                let busy = try harness.exchange(Array("{\"version\":1,\"type\":\"jobs\"}\n".utf8))
                #expect(busy.contains("\"busy\":true") && busy.contains("too many connections"), "\(busy)")
                let client = try harness.client(["jobs"], within: .seconds(20))
                #expect(client.status == 0, "\(client)")
                #expect(client.stdout == "no jobs\n", "\(client)")
            }
        }

        @Test func aListenerOfAnotherUserGetsNothingFromTheClient() throws {
            let perl = "/usr/bin/perl"
            try #require(FileManager.default.isExecutableFile(atPath: perl), "perl is needed for the listener")
            let victim = uid_t(61_000 + Int(getpid()) % 1_000)
            let attacker = uid_t(65_534)
            let directory = "/tmp/syncgate-\(victim)"
            try? FileManager.default.removeItem(atPath: directory)
            defer { try? FileManager.default.removeItem(atPath: directory) }
            // The impersonator: creates the directory, listens, reads what comes and answers with a fake id.
            let script = #"""
                use IO::Socket::UNIX; my ($dir) = @ARGV; umask 0; mkdir $dir, 0711 or die "mkdir: $!";
                my $s = IO::Socket::UNIX->new(Type => SOCK_STREAM(), Local => "$dir/socket", Listen => 1)
                    or die "listen: $!";
                $| = 1; print "listening\n"; my $c = $s->accept or die "accept: $!";
                my $line = <$c>; print $c qq({"version":1,"ok":true,"id":"fake"}\n) if defined $line;
                print "received ", length($line // ""), " bytes: ", ($line // ""), "\n";
                """#
            let impostor = try SpawnedProcess(
                "/usr/bin/env", ["-u", "XDG_RUNTIME_DIR"] + Self.asUser(attacker) + [perl, "-e", script, directory])
            defer { impostor.stop() }
            impostor.closeInput()
            #expect(try impostor.nextLine(within: .seconds(10)) == "listening", "\(impostor.stderrText)")

            guard let tool = NetnsSupport.toolPath else { throw NetnsError(message: "no syncgate") }
            let victimEnvironment = ["/usr/bin/env", "-u", "XDG_RUNTIME_DIR", "-u", "SYNCGATE_SOCKET", "HOME=/"]
            let client = try SpawnedProcess(
                "/bin/sh",
                ["-c", #"cd / && exec "$@""#, "sh"] + victimEnvironment + Self.asUser(victim)
                    + [tool, "submit", "--name", "secret", "--", "curl", "-u", "me:SECRET-TOKEN", "https://x"])
            defer { client.stop() }
            client.closeInput()
            let (stdout, status) = try client.finish(before: .now + .seconds(10))
            #expect(status == 1, "stdout: \(stdout), stderr: \(client.stderrText)")
            #expect(stdout.isEmpty, "the client printed the impostor's id: \(stdout)")
            #expect(
                client.stderrText
                    == "syncgate: refusing to talk to the process listening on \(directory)/socket: it runs as uid "
                    + "\(attacker), not as uid \(victim) or root, so it is not your daemon (nothing was sent)\n")
            let (received, _) = try impostor.finish(before: .now + .seconds(10))
            #expect(received == "received 0 bytes: \n", "the impostor got: \(received)")

            // The victim's own daemon refuses the directory another user made, naming its owner.
            let state = NSTemporaryDirectory() + NetnsSupport.uniqueName("victim-state")
            try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: state) }
            chown(state, victim, victim)
            let daemon = try SpawnedProcess(
                "/bin/sh",
                ["-c", #"cd / && exec "$@""#, "sh"] + victimEnvironment + Self.asUser(victim)
                    + [tool, "daemon", "--state-dir", state + "/s"])
            defer { daemon.stop() }
            daemon.closeInput()
            let (_, daemonStatus) = try daemon.finish(before: .now + .seconds(20))
            #expect(daemonStatus == 1, "\(daemon.stderrText)")
            #expect(
                daemon.stderrText.contains(
                    "the socket directory \(directory) belongs to uid \(attacker), not \(victim): refusing it"),
                "\(daemon.stderrText)")
        }

        /// A socket directory that is a symbolic link is refused, and its target keeps its mode; a file at
        /// the socket's path that is not a socket is refused and kept; a stale socket is replaced.
        @Test func theSocketsLocationIsCheckedBeforeItIsUsed() throws {
            try withDaemon { topology, harness in
                try topology.configureIPv4(defaultRoute: false)
                let target = harness.directory + "/target"
                try FileManager.default.createDirectory(
                    atPath: target, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
                try FileManager.default.createSymbolicLink(
                    atPath: harness.directory + "/run", withDestinationPath: target)
                let linked = try harness.startFailingDaemon()
                #expect(linked.status == 1)
                #expect(
                    linked.log.contains(
                        "the socket directory \(harness.directory)/run is a symbolic link, not a directory: refusing it"
                    ),
                    "\(linked.log)")
                var info = stat()
                #expect(stat(target, &info) == 0 && info.st_mode & 0o777 == 0o755)
                #expect(!FileManager.default.fileExists(atPath: target + "/socket"))

                try FileManager.default.removeItem(atPath: harness.directory + "/run")
                try FileManager.default.createDirectory(
                    atPath: harness.directory + "/run", withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700])
                try Data("precious".utf8).write(to: URL(fileURLWithPath: harness.socket))
                let file = try harness.startFailingDaemon()
                #expect(file.status == 1)
                #expect(
                    file.log.contains(
                        "\(harness.socket) exists and is a regular file, not a socket: refusing to replace it"),
                    "\(file.log)")
                #expect(try String(contentsOfFile: harness.socket, encoding: .utf8) == "precious")

                // A socket nobody listens on any more: replaced.
                try FileManager.default.removeItem(atPath: harness.socket)
                let stale = try harness.connectableSocket()
                close(stale)
                try harness.startDaemon()
                #expect(try harness.client(["jobs"]).status == 0)
                #expect(try harness.stopDaemon() == 0)
            }
        }

        /// A socket directory or state directory that holds other files (a shared one, such as `/` or a
        /// home directory given as `--socket` or `--state-dir`) keeps its mode: only SyncGate's own
        /// entries are closed to others.
        @Test func sharedDirectoriesKeepTheirMode() throws {
            try withDaemon { topology, harness in
                try topology.configureIPv4(defaultRoute: false)
                let socketDirectory = (harness.socket as NSString).deletingLastPathComponent
                for directory in [socketDirectory, harness.state] {
                    try FileManager.default.createDirectory(
                        atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
                    try Data("mine".utf8).write(to: URL(fileURLWithPath: directory + "/neighbour"))
                }
                try harness.startDaemon()
                #expect(try harness.client(["jobs"]).status == 0)
                var info = stat()
                for directory in [socketDirectory, harness.state] {
                    #expect(stat(directory, &info) == 0 && info.st_mode & 0o777 == 0o755, "\(directory)")
                }
                for directory in [harness.state + "/jobs", harness.state + "/runs"] {
                    #expect(stat(directory, &info) == 0 && info.st_mode & 0o077 == 0, "\(directory)")
                }
                #expect(try harness.stopDaemon() == 0)
            }
        }

        /// A daemon that cannot open its socket (another process listens there) restores and starts nothing:
        /// a runnable job's command does not run, and no run is recorded.
        @Test func aDaemonThatCannotListenStartsNoJob() throws {
            try withDaemon { topology, harness in
                try topology.configureIPv4(defaultRoute: false)
                try harness.startDaemon()
                let marker = harness.directory + "/marker"
                let submitted = try harness.client(["submit", "--require", "network", "--", "touch", marker])
                #expect(submitted.status == 0, "\(submitted)")
                let id = submitted.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                #expect(try harness.stopDaemon() == 0)
                try topology.inObserved("route add default via 10.200.0.1 dev v0")

                let squatter = try harness.connectableSocket()
                defer { close(squatter) }
                let refused = try harness.startFailingDaemon()
                #expect(refused.status == 1)
                #expect(refused.log.contains("another daemon is listening on \(harness.socket)"), "\(refused.log)")
                #expect(!refused.log.contains("restored"), "\(refused.log)")
                #expect(!FileManager.default.fileExists(atPath: marker))
                let runs =
                    (try? String(contentsOfFile: harness.state + "/runs/\(id)/runs.jsonl", encoding: .utf8)) ?? ""
                #expect(!runs.contains("started"), "\(runs)")
            }
        }

        /// After a restart the log says "restored" and "listening" before any run starts, however many jobs
        /// are restored runnable at once (here: jobs whose runs the stop cut short, needing nothing).
        @Test func theLogSaysRestoredAndListeningBeforeARunStarts() throws {
            try withDaemon { topology, harness in
                try topology.configureIPv4(defaultRoute: false)
                try harness.startDaemon()
                let release = harness.directory + "/release"
                let started = harness.directory + "/started"
                var ids: [String] = []
                for index in 0..<4 {
                    let submitted = try harness.client([
                        "submit", "--require", "none", "--name", "job\(index)", "--", "sh", "-c",
                        "[ -e \(release) ] && exit 0; echo \(index) >> \(started); exec sleep 30",
                    ])
                    ids.append(submitted.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
                }
                try harness.eventually("every first run started") {
                    let text = (try? String(contentsOfFile: started, encoding: .utf8)) ?? ""
                    return text.split(separator: "\n").count == ids.count
                }
                #expect(try harness.stopDaemon() == 0)
                #expect(FileManager.default.createFile(atPath: release, contents: nil))
                // Run logs of other jobs, which the start looks through (to prune old ones) after the
                // restore: time in which the restored jobs must not start.
                for index in 0..<3_000 {
                    mkdir(harness.state + "/runs/other\(index)", 0o700)
                }
                let before = harness.logText.utf8.count
                try harness.startDaemon()
                try harness.eventually("every job succeeded", within: .seconds(30)) {
                    let jobs = try harness.jobs()
                    return ids.allSatisfy { jobs[$0]?["state"] as? String == "succeeded" }
                }
                let lines = String(harness.logText.utf8.dropFirst(before))?.split(separator: "\n") ?? []
                let restored = lines.firstIndex { $0.contains("restored \(ids.count) job(s)") }
                let listening = lines.firstIndex { $0.contains("listening on") }
                let run = lines.firstIndex { $0.contains(" run 2 started") }
                #expect(restored != nil && listening != nil && run != nil, "\(lines)")
                if let restored, let listening, let run {
                    #expect(restored < listening && listening < run, "\(lines)")
                }
                #expect(try harness.stopDaemon() == 0)
            }
        }

        /// One rule for unknown ids: `cancel ID` and `logs ID` print one line naming the id and exit 1; a job
        /// that has ended is said to have ended.
        @Test func unknownIdsGetOneLineNamingTheIdAndExitOne() throws {
            try withDaemon { topology, harness in
                try topology.configureIPv4(defaultRoute: false)
                try harness.startDaemon()
                for arguments in [["cancel", "nope"], ["logs", "nope"]] {
                    let result = try harness.client(arguments)
                    #expect(result.status == 1, "\(arguments): \(result)")
                    #expect(result.stdout.isEmpty, "\(arguments): \(result)")
                    #expect(result.stderr == "syncgate: no job with id 'nope'\n", "\(arguments): \(result)")
                }
                let done = try harness.client(["submit", "--require", "none", "--wait", "--", "true"])
                let id = done.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                let ended = try harness.client(["cancel", id])
                #expect(ended.status == 1)
                #expect(ended.stderr == "syncgate: job '\(id)' has already ended; nothing to cancel\n", "\(ended)")
                #expect(try harness.stopDaemon() == 0)
            }
        }

        /// An argument and a working directory that are not UTF-8 (bytes 0xFF, 0xC3 alone) reach the daemon's
        /// command byte for byte, across the client's JSON request and the launcher's exec; before, each such
        /// byte became U+FFFD, so the command ran with other arguments in no directory it could enter.
        @Test func argumentsAndDirectoriesThatAreNotUTF8ArriveByteForByte() throws {
            try withDaemon { topology, harness in
                try topology.configureIPv4(defaultRoute: false)
                try harness.startDaemon()
                let name = SystemBytes.text(of: Array("d".utf8) + [0xC3, 0x2D, 0xFF])
                let directory = harness.directory + "/" + name
                let made = SystemBytes.withCString(directory) { mkdir($0, 0o755) }
                #expect(made == 0)
                let argument = SystemBytes.text(of: [0x61, 0xFF, 0x62, 0xC3])
                let output = harness.directory + "/out"
                let done = try harness.client(
                    [
                        "submit", "--require", "none", "--wait", "--", "sh", "-c",
                        #"printf '%s|' "$1" > "$2" && pwd >> "$2""#, "sh", argument, output,
                    ], in: directory)
                #expect(done.status == 0, "\(done)")
                let written = try #require(FileManager.default.contents(atPath: output))
                #expect(Array(written) == SystemBytes.bytes(of: argument + "|" + directory + "\n"))
                // An --on-change path that is not UTF-8 is watched at its own bytes: a file made there runs
                // the job (it was refused, "the path is not UTF-8").
                let watched = try harness.client(
                    ["submit", "--require", "none", "--on-change", ".", "--quiet", "0s", "--", "true"], in: directory)
                #expect(watched.status == 0, "\(watched)")
                let watchID = watched.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                #expect(try harness.job(watchID)["onChange"] as? [String] == [directory + "/."])
                // Made by a child, from the path's bytes: in this test process a descriptor-returning call in
                // a closure here once handed back 0, and closing it closed the process's stdin.
                _ = try SpawnedProcess.run("/usr/bin/touch", [directory + "/new"])
                try harness.eventually("the change ran the job", within: .seconds(40)) {
                    try !harness.runs(watchID).isEmpty
                }
                #expect(try harness.client(["cancel", watchID]).status == 0)
                #expect(try harness.stopDaemon() == 0)
            }
        }

        /// App conditions are bounded: at most 1 024 on at once (each is copied with every status change),
        /// the next is refused with a clear error, and turning one off makes room.
        @Test func theNumberOfConditionsOnIsBounded() throws {
            try withDaemon { topology, harness in
                try topology.configureIPv4(defaultRoute: false)
                try harness.startDaemon()
                func set(_ name: String, _ on: Bool) throws -> String {
                    try harness.exchange(
                        Array(#"{"version":1,"type":"setCondition","name":"\#(name)","on":\#(on)}"#.utf8)
                            + [UInt8(ascii: "\n")])
                }
                for index in 0..<1_024 {
                    let answer = try set("c\(index)", true)
                    try #require(answer.contains("\"ok\":true"), "condition \(index): \(answer)")
                }
                let refused = try harness.client(["set-condition", "one-more", "on"])
                #expect(refused.status == 1)
                #expect(
                    refused.stderr
                        == "syncgate: cannot turn on condition 'one-more': 1024 conditions are on, at most 1024; "
                        + "turn some off first\n", "\(refused)")
                #expect(try set("c0", true).contains("\"ok\":true"), "a condition already on can be set again")
                #expect(try set("c0", false).contains("\"ok\":true"))
                #expect(try harness.client(["set-condition", "one-more", "on"]).status == 0)
                #expect(try harness.stopDaemon() == 0)
            }
        }

        /// Control characters in a command never reach the terminal from `jobs` or the daemon's log; a NUL
        /// byte in an argument (which a command line cannot carry) is refused; the state directory is
        /// closed to others even when it existed before with a wider mode.
        @Test func controlCharactersNulBytesAndStateModes() throws {
            try withDaemon { topology, harness in
                try topology.configureIPv4(defaultRoute: false)
                try FileManager.default.createDirectory(
                    atPath: harness.state, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
                try harness.startDaemon()
                var info = stat()
                for directory in [harness.state, harness.state + "/jobs", harness.state + "/runs"] {
                    #expect(stat(directory, &info) == 0 && info.st_mode & 0o077 == 0, "\(directory)")
                }
                let escape = "\u{1B}]0;owned\u{7}\u{1B}[2J"
                let submitted = try harness.client(["submit", "--delay", "1h", "--", escape])
                #expect(submitted.status == 0, "\(submitted)")
                let listing = try harness.client(["jobs"])
                #expect(!listing.stdout.unicodeScalars.contains("\u{1B}"), "\(listing.stdout.debugDescription)")
                #expect(listing.stdout.contains("\\e]0;owned\\u{7}\\e[2J"), "\(listing.stdout)")
                #expect(!harness.logText.unicodeScalars.contains("\u{1B}"), "\(harness.logText.debugDescription)")

                let nul = try harness.exchange(
                    Array(
                        #"{"version":1,"type":"submit","submission":{"command":["sh","-c","echo a\u0000b"],"#.utf8)
                        + Array(
                            #""workingDirectory":"/","require":"none","conditions":[],"tags":[],"retries":0,"#.utf8)
                        + Array(#""stopOnLoss":false,"wait":false}}"#.utf8) + [UInt8(ascii: "\n")])
                #expect(
                    nul.contains("invalid argument 2 of field 'submission.command': must not contain a NUL byte"),
                    "\(nul)")
                #expect(try harness.jobs().count == 1)
                #expect(try harness.stopDaemon() == 0)
            }
        }
    }

    extension DaemonHarness {
        /// Starts a daemon that is expected to refuse to start (as ``startDaemon()`` does, in the observed
        /// namespace, its stderr appended to the log) and returns its exit status and what it logged.
        func startFailingDaemon() throws -> (status: Int32, log: String) {
            guard let tool = NetnsSupport.toolPath else { throw NetnsError(message: "no syncgate") }
            let before = logText.utf8.count
            let process = try topology.startInObserved(
                "/bin/sh",
                [
                    "-c", #"exec "$0" daemon --state-dir "$1" --socket "$2" --grace 1s --kill-grace 1s 2>>"$3""#, tool,
                    state, socket, log,
                ])
            let (_, status) = try process.finish(before: .now + .seconds(20))
            return (status, String(logText.utf8.dropFirst(before)) ?? "")
        }

        /// A socket of this (root) process listening on the daemon's socket path; the caller closes it.
        func connectableSocket() throws -> Int32 {
            let descriptor = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard descriptor >= 0 else { throw NetnsError(message: "socket: errno \(errno)") }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { buffer in
                for (index, byte) in socket.utf8.enumerated() { buffer[index] = byte }
            }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            guard bound == 0, listen(descriptor, 4) == 0 else {
                close(descriptor)
                throw NetnsError(message: "bind/listen \(socket): errno \(errno)")
            }
            return descriptor
        }
    }
#endif
