import SyncGate
import SyncGateCLI
import SyncGateTestSupport
import Testing

/// The global `--verbose` flag, which installs the stderr logger.
@Suite("--verbose", .startsProcesses, .timeLimit(.minutes(1)))
struct VerboseFlagTests {
    static let table: [([String], Command, Bool)] = [
        (["status"], .invoke(StatusCommand(json: false)), false),
        (["--verbose", "status"], .invoke(StatusCommand(json: false)), true),
        (["--verbose", "watch", "--json"], .invoke(WatchCommand(json: true)), true),
        (["--verbose", "--help"], .help(nil), true),
    ]

    @Test("--verbose before the subcommand", arguments: table)
    func parses(arguments: [String], command: Command, verbose: Bool) throws {
        let invocation = try CommandLineParser.parseInvocation(arguments)
        #expect(invocation.command == command)
        #expect(invocation.verbose == verbose)
    }

    static let badArguments: [([String], String)] = [
        (["--verbose", "--verbose", "status"], "option '--verbose' given more than once"),
        (["status", "--verbose"], "unknown option '--verbose' for 'status'"),
        (
            ["--verbose"],
            "missing subcommand (one of status, watch, wait, run, demo, daemon, submit, jobs, cancel, logs, "
                + "set-condition)"
        ),
    ]

    @Test("misplaced or repeated --verbose is a usage error naming it", arguments: badArguments)
    func usageErrors(arguments: [String], message: String) {
        #expect(throws: UsageError(message)) { try CommandLineParser.parseInvocation(arguments) }
    }

    @Test("the tool runs with --verbose and logs to stderr only")
    func toolRuns() async throws {
        let result = try await ToolProcess.run(["--verbose", "status", "--json"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("{"))
        for line in result.stderr.split(separator: "\n") {
            #expect(line.hasPrefix("syncgate: "), "stderr line not from the logger: \(line)")
        }
    }
}
