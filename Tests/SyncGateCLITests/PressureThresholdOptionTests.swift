import SyncGate
import SyncGateCLI
import Testing

private let option = "--pressure-threshold"
private let percentage = "expected a percentage such as 50 or 12.5 (at most 2 digits after the point)"
private let range = "must be above 0 and at most 100"

/// `--pressure-threshold LIST`: its syntax, its mistakes, and the subcommands that take it.
@Suite("The --pressure-threshold option", .timeLimit(.minutes(1)))
struct PressureThresholdOptionTests {
    @Test(
        "a list sets the resources it names; the others keep their defaults",
        arguments: [
            ("cpu=33", PressureThresholds(cpu: 33)),
            ("cpu=50,io=25,memory=10", PressureThresholds.default),
            ("memory=5.5, io=40", PressureThresholds(io: 40, memory: 5.5)),
            (" io = 0.01 ", PressureThresholds(io: 0.01)),
            ("CPU=100", PressureThresholds(cpu: 100)),
            ("memory=1,cpu=99.99,io=7", PressureThresholds(cpu: 99.99, io: 7, memory: 1)),
        ]
    )
    func parsesGoodLists(text: String, expected: PressureThresholds) throws {
        #expect(try PressureThresholdParser.parse(text, option: option) == expected)
    }

    @Test(
        "a bad list is refused with one line naming the option, the resource and the value",
        arguments: [
            ("", "empty value for \(option): expected RESOURCE=PERCENT items such as cpu=50,io=25"),
            ("cpu=50,", "empty item in 'cpu=50,' for \(option)"),
            ("cpu", "invalid item 'cpu' in 'cpu' for \(option): expected RESOURCE=PERCENT, such as cpu=50"),
            ("gpu=5", "unknown resource 'gpu' in 'gpu=5' for \(option) (known: cpu, io, memory)"),
            ("=5", "unknown resource '' in '=5' for \(option) (known: cpu, io, memory)"),
            ("cpu=abc", "invalid cpu threshold 'abc' for \(option): \(percentage)"),
            ("io=", "invalid io threshold '' for \(option): \(percentage)"),
            ("cpu=-5", "invalid cpu threshold '-5' for \(option): \(percentage)"),
            ("cpu=1e2", "invalid cpu threshold '1e2' for \(option): \(percentage)"),
            ("memory=inf", "invalid memory threshold 'inf' for \(option): \(percentage)"),
            ("memory=nan", "invalid memory threshold 'nan' for \(option): \(percentage)"),
            ("cpu=50%", "invalid cpu threshold '50%' for \(option): \(percentage)"),
            ("cpu=12.345", "invalid cpu threshold '12.345' for \(option): \(percentage)"),
            ("cpu=.5", "invalid cpu threshold '.5' for \(option): \(percentage)"),
            ("cpu=0", "invalid cpu threshold '0' for \(option): \(range)"),
            ("io=0.00", "invalid io threshold '0.00' for \(option): \(range)"),
            ("memory=100.01", "invalid memory threshold '100.01' for \(option): \(range)"),
            ("cpu=1000", "invalid cpu threshold '1000' for \(option): \(range)"),
            ("cpu=50,io=20,cpu=60", "resource cpu given more than once in 'cpu=50,io=20,cpu=60' for \(option)"),
            ("io=5,IO=6", "resource io given more than once in 'io=5,IO=6' for \(option)"),
        ]
    )
    func refusesBadLists(text: String, message: String) {
        #expect(throws: UsageError(message)) { try PressureThresholdParser.parse(text, option: option) }
    }

    private static var run: RunCommand {
        var run = RunCommand(requirements: .notUnderPressure, command: ["true"])
        run.pressureThresholds = PressureThresholds(cpu: 70)
        return run
    }

    private static var daemon: DaemonCommand {
        var daemon = DaemonCommand()
        daemon.pressureThresholds = PressureThresholds(io: 40)
        return daemon
    }

    static let subcommands: [([String], Command)] = [
        (["status", "--pressure-threshold", "cpu=33"], .invoke(StatusCommand(pressureThresholds: .init(cpu: 33)))),
        (
            ["status", "--json", "--pressure-threshold=io=40,memory=5"],
            .invoke(StatusCommand(json: true, pressureThresholds: .init(io: 40, memory: 5)))
        ),
        (["watch", "--pressure-threshold", "memory=5"], .invoke(WatchCommand(pressureThresholds: .init(memory: 5)))),
        (
            ["wait", "--require", "not-under-pressure", "--pressure-threshold", "cpu=70"],
            .invoke(WaitCommand(requirements: .notUnderPressure, pressureThresholds: .init(cpu: 70)))
        ),
        (["run", "--require", "not-under-pressure", "--pressure-threshold", "cpu=70", "--", "true"], .invoke(run)),
        (["daemon", "--pressure-threshold", "io=40"], .invoke(daemon)),
        (["status"], .invoke(StatusCommand(pressureThresholds: .default))),
    ]

    @Test("status, watch, wait, run and daemon take the option", arguments: subcommands)
    func subcommandsTakeTheOption(arguments: [String], expected: Command) throws {
        #expect(try CommandLineParser.parse(arguments) == expected)
    }

    static let refused: [([String], String)] = [
        (["status", "--pressure-threshold", "cpu=0"], "invalid cpu threshold '0' for \(option): \(range)"),
        (["watch", "--pressure-threshold"], "option '\(option)' needs a value"),
        (
            ["wait", "--require", "network", "--pressure-threshold", "cpu=5", "--pressure-threshold", "io=5"],
            "option '\(option)' given more than once"
        ),
        (
            ["run", "--require", "none", "--pressure-threshold", "disk=5", "--", "true"],
            "unknown resource 'disk' in 'disk=5' for \(option) (known: cpu, io, memory)"
        ),
        (["daemon", "--pressure-threshold", "memory=x"], "invalid memory threshold 'x' for \(option): \(percentage)"),
        // The thresholds are the daemon's environment's, one per process: a job cannot set its own.
        (["submit", "--pressure-threshold", "cpu=5", "--", "true"], "unknown option '\(option)' for 'submit'"),
    ]

    @Test("a bad value, and the option where it does not belong, are usage errors", arguments: refused)
    func refusesTheOption(arguments: [String], message: String) {
        #expect(throws: UsageError(message)) { try CommandLineParser.parse(arguments) }
    }
}
