import Foundation
import SyncGate
import SyncGateCLI
import SyncGateTestSupport
import Testing

/// `submit --relax`: what it accepts, and each malformed value refused with one line naming the option
/// and the value (exit 2 from the built tool).
@Suite(.startsProcesses, .timeLimit(.minutes(1)))
struct RelaxOptionTests {
    static let valid: [([String], [String])] = [
        (["--require", "network,unmetered", "--relax", "unmetered=72h"], ["unmetered=72h"]),
        (
            [
                "--require", "unmetered,external-power", "--relax", "unmetered=72h", "--relax",
                "external-power=battery-not-low@12h",
            ],
            ["unmetered=72h", "external-power=battery-not-low@12h"]
        ),
        (["--condition", "on-campus", "--relax", "on-campus=2s"], ["on-campus=2s"]),
        (
            ["--require", "network,unmetered-confirmed", "--relax", "unmetered-confirmed=unmetered@3d"],
            ["unmetered-confirmed=unmetered@3d"]
        ),
    ]

    @Test(arguments: valid)
    func acceptsRelaxations(options: [String], relax: [String]) throws {
        let command = try CommandLineParser.parse(["submit"] + options + ["--", "true"])
        guard case .invoke(let invocation) = command, let submit = invocation as? SubmitCommand else {
            Issue.record("not a submit: \(command)")
            return
        }
        #expect(submit.submission.relax == relax)
    }

    @Test("a strict unmetered job can fall back to a guessed unmetered path after a wait")
    func strictFallsBackToAGuess() throws {
        let relaxations = try RelaxationParser.parseAll(
            ["unmetered-confirmed=unmetered@3d"], option: "--relax", requirements: [.network, .unmeteredConfirmed],
            conditions: [])
        #expect(relaxations == [.replace(.unmeteredConfirmed, with: .unmetered, after: .seconds(3 * 86_400))])
    }

    @Test("the values read as the relaxations they spell")
    func readsRelaxations() throws {
        let relaxations = try RelaxationParser.parseAll(
            ["unmetered=72h", "external-power=battery-not-low@12h", "on-campus=1.5s"], option: "--relax",
            requirements: [.network, .unmetered, .externalPower], conditions: ["on-campus"])
        #expect(
            relaxations == [
                .drop(.unmetered, after: .seconds(72 * 3_600)),
                .replace(.externalPower, with: .batteryNotLow, after: .seconds(12 * 3_600)),
                .drop(SyncCondition("on-campus"), after: .milliseconds(1_500)),
            ])
    }

    static let invalid: [([String], String)] = [
        (["--relax", "unmetered"], "invalid value 'unmetered' for --relax: expected NAME=DUR or NAME=LIST@DUR"),
        (["--relax", "=3h"], "invalid value '=3h' for --relax: expected NAME=DUR or NAME=LIST@DUR"),
        (
            ["--require", "unmetered", "--relax", "unmetered=@3h"],
            "invalid value 'unmetered=@3h' for --relax: expected NAME=DUR or NAME=LIST@DUR"
        ),
        (
            ["--require", "unmetered", "--relax", "unmetered=3w"],
            "invalid duration '3w' for --relax 'unmetered=3w': unknown unit 'w' (use ms, s, m, h or d)"
        ),
        (
            ["--require", "unmetered", "--relax", "unmetered=0s"],
            "invalid value 'unmetered=0s' for --relax: the wait must be positive"
        ),
        (
            ["--relax", "unmetered=3h"],
            "invalid value 'unmetered=3h' for --relax: the job does not require unmetered (it requires network)"
        ),
        (
            ["--require", "none", "--relax", "unmetered=3h"],
            "invalid value 'unmetered=3h' for --relax: the job does not require unmetered (it requires nothing)"
        ),
        (
            ["--relax", "wifi=3h"],
            "invalid value 'wifi=3h' for --relax: 'wifi' is neither a single requirement the job requires "
                + "nor one of its --condition names"
        ),
        (
            ["--require", "unmetered", "--relax", "unmetered=roaming@3h"],
            "unknown requirement 'roaming' for --relax 'unmetered=roaming@3h' (known: "
                + RequirementListParser.spellings().joined(separator: ", ") + ")"
        ),
        (
            ["--require", "unmetered", "--relax", "unmetered=unmetered@3h"],
            "invalid value 'unmetered=unmetered@3h' for --relax: relaxations: the replacement of unmetered "
                + "must not contain it"
        ),
        (
            ["--require", "unmetered", "--relax", "unmetered=3h", "--relax", "unmetered=4h"],
            "invalid value 'unmetered=4h' for --relax: unmetered is relaxed twice"
        ),
    ]

    @Test(arguments: invalid)
    func refusesMalformedValues(options: [String], message: String) {
        #expect(throws: UsageError(message)) { try CommandLineParser.parse(["submit"] + options + ["--", "true"]) }
    }

    /// The built tool exits 2 with the one-line message on stderr.
    @Test(arguments: [invalid[0], invalid[5]])
    func theToolExitsTwo(options: [String], message: String) async throws {
        let result = try await ToolProcess.run(["submit"] + options + ["--", "true"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("syncgate: \(message) (see 'syncgate submit --help')"))
        #expect(!result.stderr.dropLast().contains("\n"))
    }
}
