import Foundation
import SyncGate
import SyncGateTestSupport
import SyncGateTesting
import Testing

@testable import SyncGateCLI

/// The bounds on what the daemon and its clients accept (``DaemonLimits``): every number range-checked
/// before arithmetic, labels bounded and free of control characters, no NUL in a command, a minimum
/// period; the same rule on the command line (exit 2, naming the option) and on the wire (naming the
/// field).
@Suite(.startsProcesses)
struct DaemonLimitsTests {
    private static func submit(_ change: (inout DaemonRequest.Submission) -> Void) -> [UInt8] {
        var submission = DaemonRequest.Submission(command: ["true"], workingDirectory: "/", require: "none")
        change(&submission)
        return Array(DaemonProtocol.encodeLine(DaemonRequest.submit(submission)).dropLast())
    }

    private static let long = String(repeating: "c", count: 257)

    static let refusedOnTheWire: [(input: [UInt8], message: String)] = [
        (
            submit { $0.delay = "2562048h" },
            "invalid duration '2562048h' for field 'submission.delay': longer than 8760h"
        ),
        (
            submit { $0.timeout = "153722867280912930m" },
            "invalid duration '153722867280912930m' for field 'submission.timeout': longer than 8760h"
        ),
        (
            submit { $0.deadline = "9223372036854775807s" },
            "invalid duration '9223372036854775807s' for field 'submission.deadline': longer than 8760h"
        ),
        (
            submit {
                $0.retries = 1
                $0.backoff = "2562048h"
            },
            "invalid duration '2562048h' for field 'submission.backoff': longer than 8760h"
        ),
        (
            submit { $0.every = "1ms" },
            "invalid duration '1ms' for field 'submission.every': shorter than the minimum period of 1m"
        ),
        (
            submit { $0.every = "0s" },
            "invalid duration '0s' for field 'submission.every': shorter than the minimum period of 1m"
        ),
        (
            submit {
                $0.every = "1m"
                $0.flex = "1m"
            },
            "invalid duration '1m' for field 'submission.flex': must be positive and shorter than the period (1m)"
        ),
        (
            submit {
                $0.every = "1h"
                $0.flex = "2562048h"
            },
            "invalid duration '2562048h' for field 'submission.flex': longer than 8760h"
        ),
        (submit { $0.flex = "1m" }, "field 'submission.flex' needs field 'submission.every'"),
        (
            submit { $0.command = ["sh", "-c", "echo a\u{0}; rm -rf x"] },
            "invalid argument 2 of field 'submission.command': must not contain a NUL byte"
        ),
        (
            submit { $0.workingDirectory = "/tmp\u{0}/x" },
            "invalid field 'submission.workingDirectory': must not contain a NUL byte"
        ),
        (
            submit { $0.name = "\u{1B}]0;owned\u{7}" },
            "invalid value '\\e]0;owned\\u{7}' for field 'submission.name': must not contain control characters"
        ),
        (
            submit { $0.conditions = [long] },
            "invalid value '\(long.prefix(64))…' for field 'submission.conditions': longer than 256 bytes (257)"
        ),
        (
            submit { $0.tags = (0..<65).map { "t\($0)" } },
            "field 'submission.tags' has 65 entries; at most 64"
        ),
        (
            submit { $0.uniqueKey = "" },
            "invalid value '' for field 'submission.uniqueKey': must not be empty"
        ),
        (
            submit {
                $0.uniqueKey = "k"
                $0.onDuplicate = "merge"
            },
            "invalid value 'merge' for field 'submission.onDuplicate': expected keep, replace or append"
        ),
        (
            Array(#"{"version":1,"type":"setCondition","name":"\#(long)","on":true}"#.utf8),
            "invalid value '\(long.prefix(64))…' for field 'name': longer than 256 bytes (257)"
        ),
        (
            Array(#"{"version":1,"type":"cancel","tag":"a\nb"}"#.utf8),
            "invalid value 'a\\nb' for field 'tag': must not contain control characters"
        ),
        (
            Array(#"{"version":1,"type":"logs","id":"\#(long)"}"#.utf8),
            "invalid value '\(long.prefix(64))…' for field 'id': longer than 256 bytes (257)"
        ),
    ]

    @Test(arguments: refusedOnTheWire)
    func theDecoderRefusesOutOfRangeValuesNamingTheField(input: [UInt8], message: String) {
        #expect(throws: DaemonProtocolError(message)) { try DaemonProtocol.decodeRequest(input) }
    }

    /// The longest durations and the shortest period are accepted, at the bound.
    @Test func theBoundsThemselvesAreAccepted() throws {
        let request = try DaemonProtocol.decodeRequest(
            Self.submit {
                $0.delay = "8760h"
                $0.every = "1m"
                $0.flex = "59.999s"
                $0.name = String(repeating: "n", count: 256)
                $0.tags = (0..<64).map { "t\($0)" }
            })
        #expect(request.submission?.every == "1m")
    }

    static let refusedOnTheCommandLine: [([String], String)] = [
        (
            ["submit", "--delay", "2562048h", "--", "true"],
            "invalid duration '2562048h' for --delay: longer than 8760h"
        ),
        (
            ["submit", "--timeout=153722867280912930m", "--", "true"],
            "invalid duration '153722867280912930m' for --timeout: longer than 8760h"
        ),
        (
            ["submit", "--every", "0s", "--", "true"],
            "invalid duration '0s' for --every: shorter than the minimum period of 1m"
        ),
        (
            ["submit", "--every", "1ms", "--", "true"],
            "invalid duration '1ms' for --every: shorter than the minimum period of 1m"
        ),
        (
            ["submit", "--every", "1h", "--flex", "0s", "--", "true"],
            "invalid duration '0s' for --flex: must be positive and shorter than the period (1h)"
        ),
        (
            ["submit", "--name", "\u{1B}[2J", "--", "true"],
            "invalid value '\\e[2J' for --name: must not contain control characters"
        ),
        (
            ["submit", "--condition", long, "--", "true"],
            "invalid value '\(long.prefix(64))…' for --condition: longer than 256 bytes (257)"
        ),
        (
            ["set-condition", long, "on"],
            "invalid value '\(long.prefix(64))…' for 'set-condition': longer than 256 bytes (257)"
        ),
    ]

    @Test(arguments: refusedOnTheCommandLine)
    func theCommandLineRefusesOutOfRangeValuesNamingTheOption(arguments: [String], message: String) {
        #expect(throws: UsageError(message)) { try CommandLineParser.parse(arguments) }
    }

    /// The built tool: a usage error (exit 2) with one line naming the option and the value, and no crash,
    /// before any daemon is asked.
    @Test(.timeLimit(.minutes(1)), arguments: refusedOnTheCommandLine.prefix(4))
    func theToolExitsTwoOnOutOfRangeDurations(arguments: [String], message: String) async throws {
        let socket = NSTemporaryDirectory() + "syncgate-limits-\(getpid())/socket"
        let result = try await ToolProcess.run(arguments, environment: ["SYNCGATE_SOCKET": socket])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr == "syncgate: \(message) (see 'syncgate submit --help')\n")
        #expect(result.stdout.isEmpty)
    }

    @Test(arguments: [
        ("plain name", "plain name"),
        ("tab\there", "tab\\there"),
        ("\u{1B}[31mred\u{1B}[0m", "\\e[31mred\\e[0m"),
        ("line\nforged", "line\\nforged"),
        ("bell\u{7}", "bell\\u{7}"),
        ("csi\u{9B}2J", "csi\\u{9b}2J"),
        ("del\u{7F}", "del\\u{7f}"),
        ("ünïcode ✓", "ünïcode ✓"),
    ])
    func controlCharactersAreEscaped(text: String, shown: String) {
        #expect(DaemonLimits.escaped(text) == shown)
    }

    /// `syncgate jobs` prints names and commands with their control characters escaped.
    @Test func theJobTableEscapesControlCharacters() {
        let job = DaemonResponse.Job(
            id: "abc", name: "\u{1B}[2Jwipe", command: ["\u{1B}[2Jwipe"], state: "waiting",
            waitingFor: ["condition x"], attempts: 0, lastExitStatus: nil, uniqueKey: nil, tags: [])
        let table = JobsCommand.jobTable([job])
        #expect(!table.unicodeScalars.contains("\u{1B}"))
        #expect(table.contains("\\e[2Jwipe"))
    }

    /// The daemon's compaction timer calls the store once per interval of its clock, with no submit.
    @Test(.timeLimit(.minutes(1))) func theCompactorRunsOncePerInterval() async {
        let clock = ManualClock()
        let calls = LockedState(0)
        let compactor = JournalCompactor(
            clock: clock, interval: .seconds(600), compact: { calls.withLock { $0 += 1 } }, log: { _ in })
        let task = Task { await compactor.run() }
        for round in 1...3 {
            let deadline = ManualClock.Instant(offset: .seconds(600 * round))
            await clock.waitForSleeper(until: deadline)
            #expect(calls.withLock { $0 } == round - 1)
            clock.advance(to: deadline)
        }
        await clock.waitForSleeper(until: ManualClock.Instant(offset: .seconds(2_400)))
        #expect(calls.withLock { $0 } == 3)
        task.cancel()
        await task.value
    }

    /// A failure to compact is logged, and the timer goes on.
    @Test(.timeLimit(.minutes(1))) func aFailedCompactionIsLogged() async {
        struct Full: Error, CustomStringConvertible { var description: String { "No space left on device" } }
        let clock = ManualClock()
        let lines = LockedState<[String]>([])
        let compactor = JournalCompactor(
            clock: clock, interval: .seconds(600), compact: { throw Full() },
            log: { line in lines.withLock { $0.append(line) } })
        let task = Task { await compactor.run() }
        await clock.waitForSleeper(until: ManualClock.Instant(offset: .seconds(600)))
        clock.advance(by: .seconds(600))
        await clock.waitForSleeper(until: ManualClock.Instant(offset: .seconds(1_200)))
        #expect(lines.withLock { $0 } == ["cannot compact the journal: No space left on device"])
        task.cancel()
        await task.value
    }
}
