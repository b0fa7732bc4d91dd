import Foundation
import SyncGate
import SyncGateCLI
import SyncGateCore
import SyncGateTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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

    /// A directory and a file whose names hold bytes that are not UTF-8 (`\xE9`, `\xFF`), and a relative
    /// path to the file, are accepted: the submission carries their bytes (SystemBytes' text form), through
    /// the JSON request, and the daemon's state-directory check resolves those bytes. They were refused
    /// ("the path is not UTF-8") though the watcher handles such paths.
    @Test("paths that are not UTF-8 are accepted byte for byte, through the JSON request")
    func pathsThatAreNotUTF8() throws {
        var template = Array((NSTemporaryDirectory() + "syncgate-on-change-XXXXXX").utf8CString)
        let base = String(
            cString: try #require(template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }))
        defer { try? FileManager.default.removeItem(atPath: base) }
        let directory = base + "/" + SystemBytes.text(of: Array("caf".utf8) + [0xE9])
        let file = directory + "/" + SystemBytes.text(of: [0x66, 0xFF])
        #expect(SystemBytes.withCString(directory) { mkdir($0, 0o755) } == 0)
        let descriptor = SystemBytes.withCString(file) { open($0, O_CREAT | O_WRONLY, 0o644) }
        try #require(descriptor >= 0)
        close(descriptor)
        let parsed = try CommandLineParser.parse([
            "submit", "--on-change", directory, "--on-change", file, "--", "true",
        ])
        guard case .invoke(let command as SubmitCommand) = parsed else {
            Issue.record("not a submit command: \(parsed)")
            return
        }
        #expect(command.submission.onChange == [directory, file])
        #expect(command.submission.onChange?.contains(where: { !SystemBytes.isUnicode($0) }) == true)
        let line = DaemonProtocol.encodeLine(DaemonRequest.submit(command.submission))
        let decoded = try DaemonProtocol.decodeRequest(Array(line.dropLast()))
        guard case .submit(let received) = decoded else {
            Issue.record("not a submission: \(decoded)")
            return
        }
        #expect(received.onChange == [directory, file])
        #expect(
            received.onChange.map { $0.map(SystemBytes.bytes(of:)) } == [directory, file].map(SystemBytes.bytes(of:)))
        // The state-directory check resolves the path's own bytes (realpath of other bytes fails, and the
        // path inside the state directory, named through a link, went unnoticed).
        let link = base + "/" + SystemBytes.text(of: Array("link".utf8) + [0xFF])
        #expect(
            SystemBytes.withCString(directory) { target in SystemBytes.withCString(link) { symlink(target, $0) } } == 0)
        #expect(DaemonPaths.resolved(link + "/" + SystemBytes.text(of: [0x66, 0xFF])) == DaemonPaths.resolved(file))
        #expect(DaemonPaths.watchProblem(link, stateDirectory: DaemonPaths.resolved(directory)) != nil)
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
