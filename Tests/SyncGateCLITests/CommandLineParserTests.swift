import SyncGate
import SyncGateCLI
import Testing

@Suite(.timeLimit(.minutes(1)))
struct CommandLineParserTests {
    static let valid: [([String], Command)] = [
        (["--help"], .help(nil)),
        (["-h"], .help(nil)),
        (["help"], .help(nil)),
        (["help", "run"], .help(RunCommand.self)),
        (["--version"], .version),
        (["status"], .invoke(StatusCommand(json: false))),
        (["status", "--json"], .invoke(StatusCommand(json: true))),
        (["status", "--help"], .help(StatusCommand.self)),
        (["watch", "--json"], .invoke(WatchCommand(json: true))),
        (["wait", "-h"], .help(WaitCommand.self)),
        (["wait", "--require", "network"], .invoke(WaitCommand(requirements: .network))),
        (
            ["wait", "--require=sync-ready", "--timeout", "300ms"],
            .invoke(WaitCommand(requirements: .syncReady, timeout: .milliseconds(300)))
        ),
        (
            ["wait", "--condition", "a", "--require", "none", "--condition=b", "--timeout=0s"],
            .invoke(WaitCommand(requirements: [], conditions: ["a", "b"], timeout: .zero))
        ),
        (
            ["run", "--require", "network", "--", "ls", "-l"],
            .invoke(RunCommand(requirements: .network, command: ["ls", "-l"]))
        ),
        (
            ["run", "--require", "network", "ls", "-l"],
            .invoke(RunCommand(requirements: .network, command: ["ls", "-l"]))
        ),
        (
            ["run", "--require", "network", "--", "--help", "a b"],
            .invoke(RunCommand(requirements: .network, command: ["--help", "a b"]))
        ),
        (
            [
                "run", "--require", "unmetered,external-power", "--timeout", "5m", "--retries", "3", "--backoff",
                "2s", "--stop-on-loss", "--grace", "1s", "--", "rsync", "-a", "photos", "backup:",
            ],
            .invoke(
                RunCommand(
                    requirements: [.unmetered, .externalPower], timeout: .seconds(300), retries: 3,
                    backoff: .seconds(2), stopOnLoss: true, gracePeriod: .seconds(1),
                    command: ["rsync", "-a", "photos", "backup:"]))
        ),
        (
            ["run", "--require", "network", "--timeout", "0s", "--backoff=0ms", "--grace", "0s", "--", "ls"],
            .invoke(
                RunCommand(requirements: .network, timeout: .zero, backoff: .zero, gracePeriod: .zero, command: ["ls"]))
        ),
        (
            ["wait", "--require", "network,unmetered-confirmed"],
            .invoke(WaitCommand(requirements: [.network, .unmeteredConfirmed]))
        ),
        (
            ["run", "--require=unmetered-confirmed", "--", "ls"],
            .invoke(RunCommand(requirements: .unmeteredConfirmed, command: ["ls"]))
        ),
        (["demo"], .invoke(DemoCommand())),
        (["demo", "--speed", "20", "--plain"], .invoke(DemoCommand(speed: 20, plain: true))),
        (["demo", "--speed=0.5"], .invoke(DemoCommand(speed: 0.5))),
    ]

    @Test(arguments: valid)
    func parsesValidCommandLines(arguments: [String], expected: Command) throws {
        #expect(try CommandLineParser.parse(arguments) == expected)
    }

    static let invalid: [([String], String)] = [
        (
            [],
            "missing subcommand (one of status, watch, wait, run, demo, daemon, submit, jobs, cancel, logs, set-condition)"
        ),
        (
            ["stat"],
            "unknown subcommand 'stat' (one of status, watch, wait, run, demo, daemon, submit, jobs, cancel, logs, set-condition)"
        ),
        (["--json"], "unknown option '--json' (a subcommand comes first)"),
        (
            ["help", "nope"],
            "unknown subcommand 'nope' for help (one of status, watch, wait, run, demo, daemon, submit, jobs, cancel, logs, set-condition)"
        ),
        (["help", "run", "x"], "unexpected argument 'x' for 'help'"),
        (["status", "--verbose"], "unknown option '--verbose' for 'status'"),
        (["status", "now"], "unexpected argument 'now' for 'status'"),
        (["status", "--json", "--json"], "option '--json' given more than once"),
        (["status", "--json=yes"], "option '--json' takes no value"),
        (["wait"], "'wait' needs --require LIST (such as --require network,unmetered) or --network LIST"),
        (["wait", "--require"], "option '--require' needs a value"),
        (["wait", "--require", "network", "--require", "power"], "option '--require' given more than once"),
        (
            ["wait", "--require", "network", "--timeout", "5"],
            "invalid duration '5' for --timeout: expected a number and a unit (ms, s, m, h or d), such as 500ms, 30s, 5m, 1h or 3d"
        ),
        (["wait", "--require", "network", "--json"], "unknown option '--json' for 'wait'"),
        (["wait", "--require", "network", "--condition", ""], "empty condition name for --condition"),
        (["wait", "--require", "network", "extra"], "unexpected argument 'extra' for 'wait'"),
        (["run", "--require", "network"], "'run' needs a command after '--'"),
        (["run", "--require", "network", "--"], "'run' needs a command after '--'"),
        (["run", "--", "ls"], "'run' needs --require LIST (such as --require network,unmetered) or --network LIST"),
        (
            ["run", "--require", "network", "--retries", "-1", "--", "ls"],
            "invalid count '-1' for --retries: expected a whole number from 0 to 1000"
        ),
        (
            ["run", "--require", "network", "--retries", "many", "--", "ls"],
            "invalid count 'many' for --retries: expected a whole number from 0 to 1000"
        ),
        (["run", "--require", "network", "--retry", "3", "--", "ls"], "unknown option '--retry' for 'run'"),
        (
            ["run", "--require", "nework", "--", "ls"],
            "unknown requirement 'nework' for --require (known: \(RequirementListParserTests.known))"
        ),
        (["demo", "--speed", "0"], "invalid speed '0' for --speed: expected a number from 0.1 to 100"),
        (["demo", "--speed", "fast"], "invalid speed 'fast' for --speed: expected a number from 0.1 to 100"),
        (["demo", "--speed"], "option '--speed' needs a value"),
    ]

    @Test(arguments: invalid)
    func rejectsInvalidCommandLines(arguments: [String], message: String) {
        #expect(throws: UsageError(message)) { try CommandLineParser.parse(arguments) }
    }
}
