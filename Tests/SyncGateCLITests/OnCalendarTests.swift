import Foundation
import SyncGate
import SyncGateCLI
import SyncGateTestSupport
import Testing

/// `--on-calendar` (systemd's `OnCalendar=` subset) and the other calendar options of `syncgate submit`:
/// what each expression means, and the one-line usage error (exit status 2) naming the field and the
/// value for each refused one.
@Suite(.startsProcesses)
struct OnCalendarTests {
    typealias Spec = OnCalendarParser.Spec

    static let valid: [(String, Spec)] = [
        ("*-*-* 02:00", Spec(hours: [2], minutes: [0])),
        ("02:00", Spec(hours: [2], minutes: [0])),
        ("*-*-* 02:00:30", Spec(hours: [2], minutes: [0], seconds: [30])),
        ("Mon,Thu 18:30", Spec(weekdays: [1, 4], hours: [18], minutes: [30])),
        ("mon..fri *-*-* 07:45", Spec(weekdays: [1, 2, 3, 4, 5], hours: [7], minutes: [45])),
        ("Saturday,Sun 9:05", Spec(weekdays: [6, 7], hours: [9], minutes: [5])),
        ("*:15", Spec(hours: Set(0...23), minutes: [15])),
        ("*-*-* *:0/20", Spec(hours: Set(0...23), minutes: [0, 20, 40])),
        ("8..10,14:00,30", Spec(hours: [8, 9, 10, 14], minutes: [0, 30])),
        ("*/6:00", Spec(hours: [0, 6, 12, 18], minutes: [0])),
        ("hourly", Spec(hours: Set(0...23), minutes: [0])),
        ("daily", Spec(hours: [0], minutes: [0])),
        ("weekly", Spec(weekdays: [1], hours: [0], minutes: [0])),
        ("hourly UTC", Spec(hours: Set(0...23), minutes: [0], timeZone: "UTC")),
        ("Daily Europe/Berlin", Spec(hours: [0], minutes: [0], timeZone: "Europe/Berlin")),
        ("*-*-* 02:00 Europe/Berlin", Spec(hours: [2], minutes: [0], timeZone: "Europe/Berlin")),
        ("Sun 01:30 UTC", Spec(weekdays: [7], hours: [1], minutes: [30], timeZone: "UTC")),
        // A zone's name need not hold a `/`: any last word after the time is read as one.
        ("daily Japan", Spec(hours: [0], minutes: [0], timeZone: "Japan")),
        ("02:00 GMT", Spec(hours: [2], minutes: [0], timeZone: "GMT")),
        ("Mon *-*-* 02:00 Japan", Spec(weekdays: [1], hours: [2], minutes: [0], timeZone: "Japan")),
    ]

    @Test("a supported expression parses to its weekdays, times and zone", arguments: valid)
    func parses(text: String, expected: Spec) throws {
        #expect(try OnCalendarParser.parse(text) == expected)
    }

    static let numbers = "expected *, a number from 0 to %d, A..B, A/STEP or a list"

    /// A refused expression, the field and value the message names, and what it says was expected.
    static let rejected: [(String, String)] = [
        refusal("2026-01-01 02:00", "date", "2026-01-01", "only *-*-* (every day) is supported"),
        refusal("*-*-* 24:00", "hour", "24", String(format: numbers, 23)),
        refusal("*-*-* 02:60", "minute", "60", String(format: numbers, 59)),
        refusal("*-*-* 02:00:61", "second", "61", String(format: numbers, 59)),
        refusal("Mnday 02:00", "weekday", "Mnday", "expected Mon, Tue, Wed, Thu, Fri, Sat or Sun"),
        refusal("Fri..Mon 02:00", "weekday range", "Fri..Mon", "the first day must come first"),
        refusal("*-*-* 2", "time", "2", "expected HH:MM or HH:MM:SS"),
        // A word of digits, `*` and `/` is a time without its `:`, never a zone.
        refusal("*-*-* */5", "time", "*/5", "expected HH:MM or HH:MM:SS"),
        refusal("Mon 0/2", "time", "0/2", "expected HH:MM or HH:MM:SS"),
        // A date without a time names the date.
        refusal("2026-12-24", "date", "2026-12-24", "only *-*-* (every day) is supported, then HH:MM[:SS]"),
        refusal("*-*-*", "date", "*-*-*", "expected a time HH:MM[:SS] after it"),
        refusal("Mon *-*-* UTC", "date", "*-*-*", "expected a time HH:MM[:SS] after it"),
        refusal("02:00:00:00", "time", "02:00:00:00", "expected HH:MM or HH:MM:SS"),
        refusal("*-*-* *:0/0", "minute step", "0", "expected a step from 1 to 59"),
        refusal("02:00 Mars/Olympus", "time zone", "Mars/Olympus", "not a known IANA time zone"),
        refusal("02:00 Olympus", "time zone", "Olympus", "not a known IANA time zone"),
        refusal("monthly", "time", "monthly", "expected HH:MM or HH:MM:SS"),
        refusal("daily Mars/Olympus", "time zone", "Mars/Olympus", "expected an IANA time zone after daily"),
        refusal("daily 02:00", "time zone", "02:00", "expected an IANA time zone after daily"),
        refusal("weekly UTC 02:00", "expression", "weekly UTC 02:00", "expected weekly [TIME-ZONE]"),
        refusal("Mon Tue 02:00", "field", "Tue", "expected [WEEKDAYS] [*-*-*] HH:MM[:SS]"),
        ("", "empty expression for --on-calendar"),
    ]

    static func refusal(_ text: String, _ field: String, _ value: String, _ expected: String) -> (String, String) {
        (text, "invalid \(field) '\(value)' in --on-calendar '\(text)': \(expected)")
    }

    @Test("an unsupported expression is refused naming the field and the value", arguments: rejected)
    func rejects(text: String, message: String) {
        #expect(throws: UsageError(message)) { try OnCalendarParser.parse(text) }
    }

    static let here = FileManager.default.currentDirectoryPath

    @Test("submit carries the calendar options to the daemon; the window defaults to an hour")
    func submitCarriesTheOptions() throws {
        let parsed = try CommandLineParser.parse([
            "submit", "--on-calendar", "*-*-* 02:00", "--window", "30m", "--randomized-delay", "10m",
            "--catch-up", "skip", "--time-zone", "America/New_York", "--require", "unmetered,external-power",
            "--", "restic", "backup",
        ])
        var expected = DaemonRequest.Submission(
            command: ["restic", "backup"], workingDirectory: Self.here, require: "unmetered,external-power")
        expected.onCalendar = "*-*-* 02:00"
        expected.window = "30m"
        expected.randomizedDelay = "10m"
        expected.catchUp = "skip"
        expected.timeZone = "America/New_York"
        #expect(parsed == .invoke(SubmitCommand(expected)))
        let fields = try #require(try expected.calendarFields())
        #expect(fields.window == .seconds(1800) && fields.randomizedDelay == .seconds(600) && !fields.catchUpOnce)
        #expect(fields.spec.timeZone == "America/New_York")
        var plain = DaemonRequest.Submission(command: ["true"], workingDirectory: Self.here)
        plain.onCalendar = "daily"
        #expect(try plain.calendarFields()?.window == .seconds(3600))
    }

    static let invalidOptions: [([String], String)] = [
        (["submit", "--window", "1h", "--", "true"], "--window needs --on-calendar"),
        (["submit", "--catch-up", "once", "--", "true"], "--catch-up needs --on-calendar"),
        (
            ["submit", "--on-calendar", "02:00", "--every", "1h", "--", "true"],
            "--on-calendar cannot be used with --every"
        ),
        (
            ["submit", "--on-calendar", "02:00", "--catch-up", "all", "--", "true"],
            "invalid value 'all' for --catch-up: expected once or skip"
        ),
        (
            ["submit", "--on-calendar", "02:00", "--window", "10m", "--randomized-delay", "10m", "--", "true"],
            "invalid duration '10m' for --randomized-delay: must be shorter than the window (10m)"
        ),
        (
            ["submit", "--on-calendar", "02:00 UTC", "--time-zone", "Europe/Berlin", "--", "true"],
            "invalid value 'Europe/Berlin' for --time-zone: --on-calendar names a time zone already"
        ),
        (
            ["submit", "--on-calendar", "02:00", "--wait", "--", "true"],
            "option '--wait' cannot be used with --on-calendar (a calendar job has no last outcome)"
        ),
        (
            ["submit", "--on-calendar", "02:00", "--delay", "5m", "--", "true"],
            "option '--delay' cannot be used with --on-calendar (its occurrences say when the job runs)"
        ),
        (
            ["submit", "--on-calendar", "25:00", "--", "true"],
            "invalid hour '25' in --on-calendar '25:00': expected *, a number from 0 to 23, A..B, A/STEP or a list"
        ),
    ]

    @Test("calendar options are refused naming the option and the value", arguments: invalidOptions)
    func rejectsOptions(arguments: [String], message: String) {
        #expect(throws: UsageError(message)) { try CommandLineParser.parse(arguments) }
    }

    /// The built tool exits 2 with the one-line message on stderr.
    @Test(.timeLimit(.minutes(1)), arguments: [invalidOptions[7], invalidOptions[8]])
    func theToolExitsTwo(arguments: [String], message: String) async throws {
        let result = try await ToolProcess.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("syncgate: \(message)"))
        #expect(result.stdout.isEmpty)
    }

    /// A usage error is one line of bounded length whatever the value: control characters are escaped and
    /// a huge value is cut (the calendar expression is echoed twice).
    @Test(
        .timeLimit(.minutes(1)),
        arguments: [
            ["submit", "--on-calendar", "02:00\nx", "--", "true"],
            ["submit", "--every", "1\nm", "--", "true"],
            ["submit", "--on-calendar", String(repeating: "x", count: 100_000), "--", "true"],
            ["submit", "--on-calendar", "02:00", "--time-zone", "Foo\nBar", "--", "true"],
        ])
    func aUsageErrorIsOneBoundedLine(arguments: [String]) async throws {
        let result = try await ToolProcess.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("syncgate: invalid "), "\(result.stderr.prefix(200))")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr.prefix(200))")
        #expect(result.stderr.count < UsageError.maximumLineLength + 100)
    }
}
