import SyncGateCLI
import Testing

private let expectedUnit = "expected a number and a unit (ms, s, m, h or d), such as 500ms, 30s, 5m, 1h or 3d"

/// The command line's part of the bad-input walk (docs/ARCHITECTURE.md §4, "bad input"): a bad duration
/// is refused with an error that names the option and the value.
@Suite("Bad input on the command line", .timeLimit(.minutes(1)))
struct CommandLineBadInputTests {
    @Test(
        "the command line refuses bad durations, naming the option and the value",
        arguments: [
            ("", "--timeout", "invalid duration '' for --timeout: " + expectedUnit),
            ("-1s", "--timeout", "invalid duration '-1s' for --timeout: must not be negative"),
            ("10", "--backoff", "invalid duration '10' for --backoff: " + expectedUnit),
            ("5w", "--timeout", "invalid duration '5w' for --timeout: unknown unit 'w' (use ms, s, m, h or d)"),
            ("9000h", "--timeout", "invalid duration '9000h' for --timeout: longer than 8760h"),
        ]
    )
    func commandLineDurations(text: String, option: String, message: String) {
        #expect(throws: UsageError(message)) { try DurationParser.parse(text, option: option) }
    }
}
