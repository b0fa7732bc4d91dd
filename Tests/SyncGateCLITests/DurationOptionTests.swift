import SyncGate
import SyncGateCLI
import Testing

/// Every duration option of every subcommand follows one rule: `0s` and more are accepted, `0s` meaning
/// "no time at all", and a negative or malformed value is a usage error naming the option and the value.
/// A period is the exception: `submit --every` is at least the minimum period (1m) and `--flex` positive,
/// and a shorter value is a usage error too.
@Suite(.timeLimit(.minutes(1)))
struct DurationOptionTests {
    /// One duration option: how to write a command line that gives it a value, and where the value lands.
    struct Option: Sendable, CustomTestStringConvertible {
        var subcommand: any Subcommand.Type
        var name: String
        var arguments: @Sendable (String) -> [String]
        var value: @Sendable (Command) -> Duration?
        /// The shortest value accepted (below it: a usage error); a period's bounds are not zero.
        var shortest: Duration = .zero

        var testDescription: String { "\(subcommand.name) \(name)" }
    }

    static let options: [Option] = [
        Option(
            subcommand: WaitCommand.self, name: "--timeout",
            arguments: { ["wait", "--require", "none", "--timeout", $0] },
            value: { command in
                guard let options = command.invoked(as: WaitCommand.self) else { return nil }
                return options.timeout
            }
        ),
        Option(
            subcommand: RunCommand.self, name: "--timeout",
            arguments: { ["run", "--require", "none", "--timeout", $0, "--", "true"] },
            value: { command in
                guard let options = command.invoked(as: RunCommand.self) else { return nil }
                return options.timeout
            }
        ),
        Option(
            subcommand: RunCommand.self, name: "--backoff",
            arguments: { ["run", "--require", "none", "--backoff", $0, "--", "true"] },
            value: { command in
                guard let options = command.invoked(as: RunCommand.self) else { return nil }
                return options.backoff
            }
        ),
        Option(
            subcommand: RunCommand.self, name: "--grace",
            arguments: { ["run", "--require", "none", "--grace", $0, "--", "true"] },
            value: { command in
                guard let options = command.invoked(as: RunCommand.self) else { return nil }
                return options.gracePeriod
            }
        ),
        Option(
            subcommand: DaemonCommand.self, name: "--grace",
            arguments: { ["daemon", "--grace", $0] },
            value: { command in
                guard let options = command.invoked(as: DaemonCommand.self) else { return nil }
                return options.gracePeriod
            }
        ),
        Option(
            subcommand: DaemonCommand.self, name: "--kill-grace",
            arguments: { ["daemon", "--kill-grace", $0] },
            value: { command in
                guard let options = command.invoked(as: DaemonCommand.self) else { return nil }
                return options.killGrace
            }
        ),
        Option(
            subcommand: SubmitCommand.self, name: "--delay",
            arguments: { ["submit", "--delay", $0, "--", "true"] },
            value: { command in
                guard let text = command.invoked(as: SubmitCommand.self)?.submission.delay else { return nil }
                return try? DurationParser.parse(text, option: "--delay")
            }
        ),
        Option(
            subcommand: SubmitCommand.self, name: "--deadline",
            arguments: { ["submit", "--deadline", $0, "--", "true"] },
            value: { command in
                guard let text = command.invoked(as: SubmitCommand.self)?.submission.deadline else { return nil }
                return try? DurationParser.parse(text, option: "--deadline")
            }
        ),
        Option(
            subcommand: SubmitCommand.self, name: "--timeout",
            arguments: { ["submit", "--timeout", $0, "--", "true"] },
            value: { command in
                guard let text = command.invoked(as: SubmitCommand.self)?.submission.timeout else { return nil }
                return try? DurationParser.parse(text, option: "--timeout")
            },
            shortest: .nanoseconds(1)
        ),
        Option(
            subcommand: SubmitCommand.self, name: "--backoff",
            arguments: { ["submit", "--retries", "1", "--backoff", $0, "--", "true"] },
            value: { command in
                guard let text = command.invoked(as: SubmitCommand.self)?.submission.backoff else { return nil }
                return try? DurationParser.parse(text, option: "--backoff")
            }
        ),
        Option(
            subcommand: SubmitCommand.self, name: "--every",
            arguments: { ["submit", "--every", $0, "--", "true"] },
            value: { command in
                guard let text = command.invoked(as: SubmitCommand.self)?.submission.every else { return nil }
                return try? DurationParser.parse(text, option: "--every")
            },
            shortest: DaemonLimits.minimumPeriod
        ),
        Option(
            subcommand: SubmitCommand.self, name: "--flex",
            arguments: { ["submit", "--every", "1h", "--flex", $0, "--", "true"] },
            value: { command in
                guard let text = command.invoked(as: SubmitCommand.self)?.submission.flex else { return nil }
                return try? DurationParser.parse(text, option: "--flex")
            },
            shortest: .nanoseconds(1)
        ),
        Option(
            subcommand: SubmitCommand.self, name: "--window",
            arguments: { ["submit", "--on-calendar", "02:00", "--window", $0, "--", "true"] },
            value: { command in
                guard let text = command.invoked(as: SubmitCommand.self)?.submission.window else { return nil }
                return try? DurationParser.parse(text, option: "--window")
            },
            shortest: .nanoseconds(1)
        ),
        Option(
            subcommand: SubmitCommand.self, name: "--randomized-delay",
            arguments: {
                ["submit", "--on-calendar", "02:00", "--window", "8760h", "--randomized-delay", $0, "--", "true"]
            },
            value: { command in
                guard let text = command.invoked(as: SubmitCommand.self)?.submission.randomizedDelay else { return nil }
                return try? DurationParser.parse(text, option: "--randomized-delay")
            }
        ),
        Option(
            subcommand: SubmitCommand.self, name: "--quiet",
            arguments: { ["submit", "--on-change", "/tmp", "--quiet", $0, "--", "true"] },
            value: { command in
                guard let text = command.invoked(as: SubmitCommand.self)?.submission.quiet else { return nil }
                return try? DurationParser.parse(text, option: "--quiet")
            }
        ),
    ]

    @Test func theTableHasEveryDurationOptionOfEverySubcommand() {
        let parsed = Subcommands.all.flatMap { subcommand in
            CommandLineParser.durationOptions(for: subcommand).map { "\(subcommand.name) \($0)" }
        }
        #expect(Set(Self.options.map(\.testDescription)) == Set(parsed))
        #expect(Self.options.count == parsed.count)
    }

    @Test(
        arguments: options,
        [("0s", Duration.zero), ("0ms", .zero), ("1.5s", .milliseconds(1_500)), ("2m", .seconds(120))])
    func acceptsZeroAndMore(option: Option, value: (text: String, duration: Duration)) throws {
        guard value.duration >= option.shortest else {
            #expect(throws: UsageError.self) { try CommandLineParser.parse(option.arguments(value.text)) }
            return
        }
        #expect(option.value(try CommandLineParser.parse(option.arguments(value.text))) == value.duration)
    }

    @Test(arguments: options, ["-1s", "-0s", "-0.5ms", "-2h"])
    func rejectsNegativeDurationsNamingTheOptionAndTheValue(option: Option, text: String) {
        #expect(throws: UsageError("invalid duration '\(text)' for \(option.name): must not be negative")) {
            try CommandLineParser.parse(option.arguments(text))
        }
    }

    @Test(arguments: options)
    func rejectsMalformedDurationsNamingTheOptionAndTheValue(option: Option) {
        #expect(
            throws: UsageError(
                "invalid duration '5' for \(option.name): expected a number and a unit (ms, s, m, h or d), "
                    + "such as 500ms, 30s, 5m, 1h or 3d")
        ) {
            try CommandLineParser.parse(option.arguments("5"))
        }
        #expect(throws: UsageError("invalid duration '8761h' for \(option.name): longer than 8760h")) {
            try CommandLineParser.parse(option.arguments("8761h"))
        }
    }

    /// The help of the subcommand lists the option as taking a DUR and says what 0s means for it.
    @Test(arguments: options)
    func helpSaysWhatZeroMeans(option: Option) throws {
        let lines = HelpText.text(for: option.subcommand).split(separator: "\n").map(String.init)
        let start = try #require(lines.firstIndex { $0.hasPrefix("  \(option.name) DUR ") })
        let end = lines[(start + 1)...].firstIndex { !$0.hasPrefix("      ") } ?? lines.endIndex
        #expect(lines[start..<end].joined(separator: " ").contains("0s "))
        #expect(lines.contains { $0.hasPrefix("DUR is a number and a unit") })
    }
}

extension Command {
    /// The parsed subcommand, when it is a `type`.
    fileprivate func invoked<Parsed: Subcommand>(as type: Parsed.Type) -> Parsed? {
        guard case .invoke(let subcommand) = self else { return nil }
        return subcommand as? Parsed
    }
}
