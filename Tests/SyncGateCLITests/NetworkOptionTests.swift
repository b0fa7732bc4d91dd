import Foundation
import SyncGate
import SyncGateCLI
import SyncGateTestSupport
import Testing

/// `--network` of `wait`, `run` and `submit`: what it accepts, the request field it fills, and each
/// malformed value refused with one line naming the option and the value (exit 2 from the built tool).
@Suite(.startsProcesses, .timeLimit(.minutes(1)))
struct NetworkOptionTests {
    static let list = "wlan0,eth*,ssid:Home,connection:Office,type:wifi"
    static let expected = SyncNetworkAllowlist([
        .interface("wlan0"), .interface("eth*"), .ssid("Home"), .connection("Office"), .interfaceType(.wifi),
    ])

    @Test("wait and run read --network into the allowlist; without it they allow any network")
    func waitAndRun() throws {
        guard
            case .invoke(let wait) = try CommandLineParser.parse([
                "wait", "--require", "network", "--network", Self.list,
            ]),
            let wait = wait as? WaitCommand
        else {
            Issue.record("not a wait")
            return
        }
        #expect(wait.allowedNetworks == Self.expected)
        guard
            case .invoke(let run) = try CommandLineParser.parse(
                ["run", "--require", "network", "--network", "ssid:Home", "--stop-on-loss", "--", "true"]),
            let run = run as? RunCommand
        else {
            Issue.record("not a run")
            return
        }
        #expect(run.allowedNetworks == SyncNetworkAllowlist([.ssid("Home")]))
        guard case .invoke(let plain) = try CommandLineParser.parse(["wait", "--require", "network"]),
            let plain = plain as? WaitCommand
        else {
            Issue.record("not a wait")
            return
        }
        #expect(plain.allowedNetworks == nil)
    }

    @Test("without --require, --network requires the network, on one of the listed networks")
    func networkAloneRequiresTheNetwork() throws {
        guard case .invoke(let wait) = try CommandLineParser.parse(["wait", "--network", "ssid:Home"]),
            let wait = wait as? WaitCommand
        else {
            Issue.record("not a wait")
            return
        }
        #expect(wait.requirements == .network)
        #expect(wait.allowedNetworks == SyncNetworkAllowlist([.ssid("Home")]))
        guard case .invoke(let run) = try CommandLineParser.parse(["run", "--network", "eth*", "--", "true"]),
            let run = run as? RunCommand
        else {
            Issue.record("not a run")
            return
        }
        #expect(run.requirements == .network)
    }

    @Test("submit carries --network as typed; the daemon's submission reads it back into the same list")
    func submitCarriesTheText() throws {
        guard
            case .invoke(let invocation) = try CommandLineParser.parse(["submit", "--network", Self.list, "--", "true"]),
            let submit = invocation as? SubmitCommand
        else {
            Issue.record("not a submit")
            return
        }
        #expect(submit.submission.network == Self.list)
        let line = DaemonProtocol.encodeLine(DaemonRequest.submit(submit.submission))
        let decoded = try DaemonProtocol.decodeRequest(Array(line.dropLast()))
        #expect(decoded.submission?.network == Self.list)
        #expect(try SyncNetworkAllowlist(parsing: decoded.submission?.network ?? "") == Self.expected)
    }

    static let invalid: [([String], String)] = [
        (["--network", ""], "invalid value '' for --network: an empty network in the list"),
        (["--network", "eth0,,wlan0"], "invalid value 'eth0,,wlan0' for --network: an empty network in the list"),
        (
            ["--network", "type:modem"],
            "invalid value 'type:modem' for --network: unknown interface type \"modem\" "
                + "(expected wifi, cellular, wired-ethernet, other)"
        ),
        (["--network", "ssid:"], "invalid value 'ssid:' for --network: \"ssid:\" names no network"),
        (["--network", "eth0\\"], "invalid value 'eth0\\' for --network: \"eth0\\\" ends in a lone \\"),
        (
            ["--network", long],
            "invalid value '\(DaemonLimits.shown(long))' for --network: longer than 2048 bytes (\(long.utf8.count))"
        ),
        (
            ["--network", many],
            "invalid value '\(DaemonLimits.shown(many))' for --network: at most 64 networks, got 65"
        ),
    ]

    /// 60 names of 40 bytes: each within its limit, the list over 2048 bytes.
    static let long = (0..<60).map { "n\($0)" + String(repeating: "x", count: 37) }.joined(separator: ",")
    /// 65 short names.
    static let many = (0..<65).map { "n\($0)" }.joined(separator: ",")

    @Test(
        "a bad list is refused on the command line of wait, run and submit, naming --network and the value",
        arguments: invalid)
    func refusesMalformedValues(options: [String], message: String) {
        #expect(throws: UsageError(message)) { try CommandLineParser.parse(["submit"] + options + ["--", "true"]) }
        #expect(throws: UsageError(message)) {
            try CommandLineParser.parse(["run", "--require", "network"] + options + ["--", "true"])
        }
        #expect(throws: UsageError(message)) {
            try CommandLineParser.parse(["wait", "--require", "network"] + options)
        }
    }

    @Test("a request whose network field has a control character or is too long is refused, naming the field")
    func protocolBounds() throws {
        for (network, problem) in [
            ("eth0\u{1B}[2J", "must not contain control characters"),
            (String(repeating: "e", count: DaemonLimits.maximumNetworkListBytes + 1), "longer than 2048 bytes (2049)"),
            ("", "must not be empty"),
        ] {
            var submission = DaemonRequest.Submission(command: ["true"], workingDirectory: "/")
            submission.network = network
            #expect {
                try submission.validate()
            } throws: { error in
                "\(error)".contains("for field 'submission.network': \(problem)")
            }
        }
    }

    /// The built tool exits 2 with the one-line message on stderr.
    @Test(arguments: [invalid[2]])
    func theToolExitsTwo(options: [String], message: String) async throws {
        let result = try await ToolProcess.run(["wait", "--require", "network"] + options)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("syncgate: \(message) (see 'syncgate wait --help')"))
        #expect(!result.stderr.dropLast().contains("\n"))
    }
}
