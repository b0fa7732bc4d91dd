import SyncGateCLI
import Testing

@Suite(.timeLimit(.minutes(1)))
struct DurationParserTests {
    static let valid: [(String, Duration)] = [
        ("500ms", .milliseconds(500)),
        ("30s", .seconds(30)),
        ("5m", .seconds(300)),
        ("1h", .seconds(3_600)),
        ("0s", .zero),
        ("0ms", .zero),
        ("1.5s", .milliseconds(1_500)),
        ("0.25m", .seconds(15)),
        ("1.5ms", .microseconds(1_500)),
        ("0.000000001s", .nanoseconds(1)),
        ("8760h", .seconds(31_536_000)),
        ("3d", .seconds(259_200)),
        ("1.5d", .seconds(129_600)),
        ("365d", .seconds(31_536_000)),
        ("007s", .seconds(7)),
    ]

    @Test(arguments: valid)
    func parsesValidDurations(text: String, expected: Duration) throws {
        #expect(try DurationParser.parse(text, option: "--timeout") == expected)
    }

    static let syntax = "expected a number and a unit (ms, s, m, h or d), such as 500ms, 30s, 5m, 1h or 3d"

    @Test(arguments: [
        ("", "invalid duration '' for --timeout: \(syntax)"),
        ("5", "invalid duration '5' for --timeout: \(syntax)"),
        ("s", "invalid duration 's' for --timeout: \(syntax)"),
        ("-5s", "invalid duration '-5s' for --timeout: must not be negative"),
        ("-1s", "invalid duration '-1s' for --timeout: must not be negative"),
        ("-0.5ms", "invalid duration '-0.5ms' for --timeout: must not be negative"),
        ("-1", "invalid duration '-1' for --timeout: must not be negative"),
        ("-s", "invalid duration '-s' for --timeout: \(syntax)"),
        ("--5s", "invalid duration '--5s' for --timeout: \(syntax)"),
        ("5 s", "invalid duration '5 s' for --timeout: \(syntax)"),
        ("1.s", "invalid duration '1.s' for --timeout: \(syntax)"),
        (".5s", "invalid duration '.5s' for --timeout: \(syntax)"),
        ("1.2.3s", "invalid duration '1.2.3s' for --timeout: \(syntax)"),
        ("5w", "invalid duration '5w' for --timeout: unknown unit 'w' (use ms, s, m, h or d)"),
        ("366d", "invalid duration '366d' for --timeout: longer than 8760h"),
        ("5S", "invalid duration '5S' for --timeout: unknown unit 'S' (use ms, s, m, h or d)"),
        ("5sec", "invalid duration '5sec' for --timeout: unknown unit 'sec' (use ms, s, m, h or d)"),
        ("8761h", "invalid duration '8761h' for --timeout: longer than 8760h"),
        ("99999999999999999999s", "invalid duration '99999999999999999999s' for --timeout: longer than 8760h"),
        // Values whose product with the unit overflows 64 bits: range-checked before the multiplication.
        ("2562048h", "invalid duration '2562048h' for --timeout: longer than 8760h"),
        ("153722867280912930m", "invalid duration '153722867280912930m' for --timeout: longer than 8760h"),
        ("9223372037s", "invalid duration '9223372037s' for --timeout: longer than 8760h"),
        ("9223372036854775807ms", "invalid duration '9223372036854775807ms' for --timeout: longer than 8760h"),
        ("8760.000000001h", "invalid duration '8760.000000001h' for --timeout: longer than 8760h"),
        ("0.0000000001s", "invalid duration '0.0000000001s' for --timeout: at most 9 digits after the point"),
    ])
    func rejectsInvalidDurations(text: String, message: String) {
        #expect(throws: UsageError(message)) { try DurationParser.parse(text, option: "--timeout") }
    }

    @Test(arguments: [
        (Duration.zero, "0s"),
        (.milliseconds(300), "300ms"),
        (.seconds(5), "5s"),
        (.milliseconds(1_500), "1.5s"),
        (.seconds(120), "2m"),
        (.seconds(3_600), "1h"),
        (.seconds(259_200), "72h"),
        (.seconds(90), "90s"),
        (.microseconds(1_500), "1.5ms"),
        (.milliseconds(1_234), "1.234s"),
    ])
    func formatsDurations(duration: Duration, text: String) throws {
        #expect(DurationParser.format(duration) == text)
        #expect(try DurationParser.parse(text, option: "--x") == duration)
    }
}
