import Foundation
import SyncGate
import SyncGateCLI
import SyncGateTestSupport
import Testing

/// `--on-change` and `--quiet` of `syncgate submit`: what reaches the daemon, and the one-line usage
/// error (exit status 2) naming the option and the value for each refused input; the daemon's decoder
/// refuses the same values on the wire.
@Suite(.startsProcesses)
struct OnChangeOptionTests {
    static let here = FileManager.default.currentDirectoryPath

    @Test("submit carries absolute paths (a relative one made absolute) and the quiet period to the daemon")
    func submitCarriesTheOptions() throws {
        let parsed = try CommandLineParser.parse([
            "submit", "--on-change", "/tmp", "--on-change", ".", "--quiet", "2s", "--require", "unmetered",
            "--", "rsync", "-a",
        ])
        var expected = DaemonRequest.Submission(
            command: ["rsync", "-a"], workingDirectory: Self.here, require: "unmetered")
        expected.onChange = ["/tmp", Self.here + "/."]
        expected.quiet = "2s"
        #expect(parsed == .invoke(SubmitCommand(expected)))
        let fields = try #require(try expected.fileTriggerFields())
        #expect(fields.paths == ["/tmp", Self.here + "/."])
        #expect(fields.quiet == .seconds(2))
        var plain = DaemonRequest.Submission(command: ["true"], workingDirectory: Self.here)
        plain.onChange = ["/tmp"]
        #expect(try plain.fileTriggerFields()?.quiet == .seconds(5))
    }

    static let invalidOptions: [([String], String)] = [
        (
            ["submit", "--on-change", "/no/such/syncgate-path", "--", "true"],
            "invalid value '/no/such/syncgate-path' for --on-change: no such file or directory"
        ),
        (
            ["submit", "--on-change", "/dev/null", "--", "true"],
            "invalid value '/dev/null' for --on-change: not a directory or a file"
        ),
        (["submit", "--quiet", "5s", "--", "true"], "--quiet '5s' needs --on-change PATH"),
        (["submit", "--on-change", "/tmp", "--every", "1h", "--", "true"], "--on-change cannot be used with --every"),
        (
            ["submit", "--on-change", "/tmp", "--wait", "--", "true"],
            "option '--wait' cannot be used with --on-change (a file-triggered job has no last outcome)"
        ),
        (
            ["submit", "--on-change", "/tmp", "--delay", "1m", "--", "true"],
            "option '--delay' cannot be used with --on-change (--quiet says how long after a change it runs)"
        ),
    ]

    @Test("file-trigger options are refused naming the option and the value", arguments: invalidOptions)
    func rejectsOptions(arguments: [String], message: String) {
        #expect(throws: UsageError(message)) { try CommandLineParser.parse(arguments) }
    }

    @Test("the daemon's decoder refuses a relative path and a quiet period without paths, naming the field")
    func wireRefusals() {
        var relative = DaemonRequest.Submission(command: ["true"], workingDirectory: "/")
        relative.onChange = ["docs"]
        let relativeError = #expect(throws: DaemonProtocolError.self) { try relative.validate() }
        #expect(
            relativeError?.message
                == "invalid value 'docs' for field 'submission.onChange': must be an absolute path")
        var quietOnly = DaemonRequest.Submission(command: ["true"], workingDirectory: "/")
        quietOnly.quiet = "5s"
        let quietError = #expect(throws: DaemonProtocolError.self) { try quietOnly.validate() }
        #expect(quietError?.message == "field 'submission.quiet' '5s' needs field 'submission.onChange' PATH")
    }

    /// The built tool exits 2 with the one-line message on stderr.
    @Test(.timeLimit(.minutes(1)), arguments: [invalidOptions[0], invalidOptions[2]])
    func theToolExitsTwo(arguments: [String], message: String) async throws {
        let result = try await ToolProcess.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("syncgate: \(message)"))
        #expect(result.stdout.isEmpty)
    }
}
