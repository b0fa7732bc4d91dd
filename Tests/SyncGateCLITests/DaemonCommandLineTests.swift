import Foundation
import SyncGate
import SyncGateCLI
import SyncGateTestSupport
import SyncGateTesting
import Testing

/// The command lines of `syncgate daemon` and its clients: what they parse to, and usage errors that
/// name the option and the value (exit status 2).
@Suite(.startsProcesses)
struct DaemonCommandLineTests {
    private static let here = FileManager.default.currentDirectoryPath

    private static func submission(_ command: [String], _ change: (inout DaemonRequest.Submission) -> Void = { _ in })
        -> Command
    {
        var submission = DaemonRequest.Submission(command: command, workingDirectory: here)
        change(&submission)
        return .invoke(SubmitCommand(submission))
    }

    static let valid: [([String], Command)] = [
        (["daemon"], .invoke(DaemonCommand())),
        (
            ["daemon", "--state-dir", "/s", "--socket=/r/socket", "--grace", "0s", "--kill-grace", "2s"],
            .invoke(
                DaemonCommand(stateDirectory: "/s", socketPath: "/r/socket", gracePeriod: .zero, killGrace: .seconds(2))
            )
        ),
        (["submit", "--", "./backup.sh"], submission(["./backup.sh"])),
        (["submit", "ls", "-l"], submission(["ls", "-l"])),
        (
            [
                "submit", "--require", "unmetered,external-power", "--condition", "c", "--tag", "t", "--tag", "u",
                "--unique", "backup", "--on-duplicate", "replace", "--delay", "1s", "--deadline", "1h", "--timeout",
                "10m", "--retries", "3", "--backoff", "2s", "--stop-on-loss", "--name", "nightly", "--wait", "--",
                "rsync", "-a", "--delete", "src/", "dest:",
            ],
            submission(["rsync", "-a", "--delete", "src/", "dest:"]) {
                $0.require = "unmetered,external-power"
                $0.conditions = ["c"]
                $0.tags = ["t", "u"]
                $0.uniqueKey = "backup"
                $0.onDuplicate = "replace"
                $0.delay = "1s"
                $0.deadline = "1h"
                $0.timeout = "10m"
                $0.retries = 3
                $0.backoff = "2s"
                $0.stopOnLoss = true
                $0.name = "nightly"
                $0.wait = true
            }
        ),
        (
            ["submit", "--require", "none", "--deadline", "0s", "--", "true"],
            submission(["true"]) {
                $0.require = "none"
                $0.deadline = "0s"
            }
        ),
        (
            ["submit", "--every", "1h", "--flex", "10m", "--", "true"],
            submission(["true"]) {
                $0.every = "1h"
                $0.flex = "10m"
            }
        ),
        (["submit", "--help"], .help(SubmitCommand.self)),
        (["jobs"], .invoke(JobsCommand(json: false, all: false))),
        (["jobs", "--json", "--all"], .invoke(JobsCommand(json: true, all: true))),
        (["cancel", "abc#1"], .invoke(CancelCommand(.id("abc#1")))),
        (["cancel", "--tag", "photos"], .invoke(CancelCommand(.tag("photos")))),
        (["cancel", "--unique=backup"], .invoke(CancelCommand(.uniqueKey("backup")))),
        (["logs", "abc#1"], .invoke(LogsCommand(id: "abc#1", json: false))),
        (["logs", "--json", "abc#1"], .invoke(LogsCommand(id: "abc#1", json: true))),
        (["set-condition", "window", "on"], .invoke(SetConditionCommand(name: "window", on: true))),
        (["set-condition", "window", "off"], .invoke(SetConditionCommand(name: "window", on: false))),
        (["help", "set-condition"], .help(SetConditionCommand.self)),
    ]

    @Test(arguments: valid)
    func parsesValidCommandLines(arguments: [String], expected: Command) throws {
        #expect(try CommandLineParser.parse(arguments) == expected)
    }

    static let invalid: [([String], String)] = [
        (["daemon", "--state-dir", "state"], "invalid path 'state' for --state-dir: must be absolute"),
        (["daemon", "--socket", "s"], "invalid path 's' for --socket: must be absolute"),
        (["daemon", "--grace", "-1s"], "invalid duration '-1s' for --grace: must not be negative"),
        (["daemon", "extra"], "unexpected argument 'extra' for 'daemon'"),
        (["submit"], "'submit' needs a command after '--'"),
        (["submit", "--"], "'submit' needs a command after '--'"),
        (
            ["submit", "--on-duplicate", "merge", "--unique", "k", "--", "true"],
            "invalid policy 'merge' for --on-duplicate: expected keep, replace or append"
        ),
        (["submit", "--on-duplicate", "keep", "--", "true"], "option '--on-duplicate' needs --unique KEY"),
        (["submit", "--unique", "", "--", "true"], "empty key for --unique"),
        (["submit", "--name", "", "--", "true"], "empty name for --name"),
        (["submit", "--tag", "", "--", "true"], "empty tag for --tag"),
        (
            ["submit", "--retries", "many", "--", "true"],
            "invalid count 'many' for --retries: expected a whole number from 0 to 1000"
        ),
        (
            ["submit", "--retries", "1001", "--", "true"],
            "invalid count '1001' for --retries: expected a whole number from 0 to 1000"
        ),
        (["submit", "--backoff", "1s", "--", "true"], "option '--backoff' needs --retries N"),
        (["submit", "--flex", "1m", "--", "true"], "option '--flex' needs --every"),
        (
            ["submit", "--every", "1h", "--wait", "--", "true"],
            "option '--wait' cannot be used with --every (a periodic job has no last outcome)"
        ),
        (["submit", "--delay", "-5s", "--", "true"], "invalid duration '-5s' for --delay: must not be negative"),
        (["submit", "--wait=yes", "--", "true"], "option '--wait' takes no value"),
        (["submit", "--stop-on-loss", "--stop-on-loss", "--", "true"], "option '--stop-on-loss' given more than once"),
        (["submit", "--grace", "1s", "--", "true"], "unknown option '--grace' for 'submit'"),
        (["jobs", "--all", "x"], "unexpected argument 'x' for 'jobs'"),
        (["cancel"], "'cancel' needs exactly one of ID, --tag TAG, --unique KEY"),
        (["cancel", "a", "--tag", "t"], "'cancel' needs exactly one of ID, --tag TAG, --unique KEY"),
        (["cancel", "a", "b"], "unexpected argument 'b' for 'cancel'"),
        (["logs"], "'logs' needs a job ID"),
        (["logs", "a", "b"], "unexpected argument 'b' for 'logs'"),
        (["set-condition", "x"], "'set-condition' needs NAME and on or off"),
        (["set-condition", "x", "yes"], "invalid state 'yes' for 'set-condition': expected on or off"),
        (["set-condition", " ", "on"], "empty condition name for 'set-condition'"),
        (
            ["submit", "--every", "1h", "--deadline", "5m", "--", "true"],
            "option '--deadline' cannot be used with --every (each run has its own window or wait)"
        ),
        (
            ["submit", "--on-calendar", "hourly", "--deadline", "0s", "--", "true"],
            "option '--deadline' cannot be used with --on-calendar (each run has its own window or wait)"
        ),
        (
            ["submit", "--every", "1h", "--unique", "k", "--on-duplicate", "append", "--", "true"],
            "option '--on-duplicate append' cannot be used with --every (the series never ends, so nothing runs after it)"
        ),
    ]

    @Test("a submission the scheduler would refuse, sent by another client, is refused naming the option")
    func theDaemonNamesTheOptionOfARefusal() {
        var submission = DaemonRequest.Submission(command: ["true"], workingDirectory: "/", require: "none")
        submission.every = "1h"
        submission.deadline = "5m"
        #expect(
            throws: UsageError(
                "invalid job for --deadline: startDeadline must be nil for a periodic job (each period has its window), "
                    + "got 300.0 seconds")
        ) { try submission.jobOptions() }
        submission.deadline = nil
        submission.every = nil
        submission.deadline = "0s"
        #expect(throws: Never.self) { try submission.jobOptions() }
        #expect(DaemonRequest.Submission.option(forField: "retry.initial") == "--retries")
        #expect(DaemonRequest.Submission.option(forField: "relaxations") == "--relax")
    }

    @Test(arguments: invalid)
    func rejectsInvalidCommandLinesNamingTheOptionAndTheValue(arguments: [String], message: String) {
        #expect(throws: UsageError(message)) { try CommandLineParser.parse(arguments) }
    }

    /// The built tool exits 2 with the one-line message on stderr.
    @Test(.timeLimit(.minutes(1)), arguments: [invalid[2], invalid[6], invalid[11], invalid[27]])
    func theToolExitsTwoWithTheMessage(arguments: [String], message: String) async throws {
        let result = try await ToolProcess.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("syncgate: \(message) (see 'syncgate \(arguments[0]) --help')"))
        #expect(result.stdout.isEmpty)
    }

    /// A state directory that cannot be created stops the daemon with one line naming the path and the
    /// system's reason, not a Foundation error's dump.
    @Test(.timeLimit(.minutes(1))) func anUncreatableStateDirectoryIsOneLine() async throws {
        let file = NSTemporaryDirectory() + "syncgate-state-file-\(getpid())"
        try "not a directory".write(toFile: file, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let result = try await ToolProcess.run([
            "daemon", "--state-dir", file + "/state", "--socket", file + "-socket/socket",
        ])
        #expect(result.status == 1)
        #expect(
            result.stderr.hasPrefix("syncgate daemon: cannot open the state directory \(file)/state: cannot create "))
        #expect(result.stderr.hasSuffix(": Not a directory\n"))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    /// A client with no daemon behind its socket says so and exits 1.
    #if os(Linux)
        /// `submit` run from a directory that was removed: the command would run there, so it is refused as a
        /// usage error naming the cause, before any daemon is asked (it said the daemon's field
        /// `submission.workingDirectory` was not absolute, got '.').
        @Test(.timeLimit(.minutes(1))) func submitFromARemovedDirectoryNamesIt() throws {
            let tool = try #require(ToolProcess.path, "the syncgate executable was not found")
            let directory = NSTemporaryDirectory() + "syncgate-removed-cwd-\(getpid())"
            let socket = NSTemporaryDirectory() + "syncgate-no-daemon-\(getpid())/socket"
            let run = try SpawnedProcess(
                "/bin/sh",
                ["-c", "mkdir \"$1\" && cd \"$1\" && rmdir \"$1\" && exec \"$0\" submit -- true", tool, directory],
                environment: ["SYNCGATE_SOCKET": socket])
            defer { run.stop() }
            run.closeInput()
            try run.waitForStderr(
                containing: "syncgate: cannot read the current directory, where 'submit' runs the command: "
                    + "No such file or directory (errno 2); run it from a directory that exists",
                within: .seconds(20))
            let (stdout, status) = try run.finish(before: .now + .seconds(20))
            #expect(status == 2)
            #expect(stdout.isEmpty)
        }
    #endif

    @Test(.timeLimit(.minutes(1))) func clientsSayWhenNoDaemonRuns() async throws {
        let socket = NSTemporaryDirectory() + "syncgate-no-daemon-\(getpid())/socket"
        let result = try await ToolProcess.run(["jobs"], environment: ["SYNCGATE_SOCKET": socket])
        #expect(result.status == 1)
        #expect(result.stderr.contains("no daemon is running on \(socket)"))
    }

    /// A socket path longer than a Unix socket's address holds: the client said "no daemon is running"
    /// and suggested starting one, which fails on the same path. Both now name the length and the limit.
    @Test(.timeLimit(.minutes(1))) func aSocketPathTooLongIsNamedAsSuch() async throws {
        let socket = NSTemporaryDirectory() + String(repeating: "x", count: 120) + "/socket"
        let client = try await ToolProcess.run(["jobs"], environment: ["SYNCGATE_SOCKET": socket])
        #expect(client.status == 1)
        let expected = "the socket path is too long for a Unix socket (\(socket.utf8.count) bytes, at most 107)"
        #expect(client.stderr.contains(expected), "\(client.stderr)")
        #expect(!client.stderr.contains("no daemon is running"))
        let state = NSTemporaryDirectory() + "syncgate-long-socket-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: state) }
        let daemon = try await ToolProcess.run(["daemon", "--state-dir", state, "--socket", socket])
        #expect(daemon.status == 1)
        #expect(daemon.stderr.contains(expected), "\(daemon.stderr)")
        // Nothing was created on the way.
        #expect(!FileManager.default.fileExists(atPath: (socket as NSString).deletingLastPathComponent))
    }
}
