import Foundation
import SyncGate

/// Turns the arguments of `syncgate` (without the program name) into a ``Command``.
///
/// Options follow their subcommand, as `--name VALUE` or `--name=VALUE`; `-h` and `--help` print help
/// wherever they appear before `run`'s command. Every mistake throws a ``UsageError`` with one line that
/// names the option or argument and the value given.
public enum CommandLineParser {
    /// The range of `--retries`.
    public static let retriesRange = 0...1_000
    /// The range of `demo --speed`.
    public static let speedRange = 0.1...100.0

    private struct OptionSpec {
        /// What follows the option's name.
        enum Value {
            /// Nothing: a flag.
            case none
            /// Any text, checked when the command is built.
            case text
            /// A duration, read by ``DurationParser/parse(_:option:)`` for every option alike.
            case duration
        }

        var name: String
        var value: Value
        var repeatable = false
        var takesValue: Bool { value != .none }
    }

    private static func specs(for subcommand: Command.Subcommand) -> [OptionSpec] {
        switch subcommand {
        case .status, .watch:
            [OptionSpec(name: "--json", value: .none)]
        case .wait:
            [
                OptionSpec(name: "--require", value: .text),
                OptionSpec(name: "--condition", value: .text, repeatable: true),
                OptionSpec(name: "--timeout", value: .duration),
            ]
        case .run:
            [
                OptionSpec(name: "--require", value: .text),
                OptionSpec(name: "--condition", value: .text, repeatable: true),
                OptionSpec(name: "--timeout", value: .duration),
                OptionSpec(name: "--retries", value: .text),
                OptionSpec(name: "--backoff", value: .duration),
                OptionSpec(name: "--stop-on-loss", value: .none),
                OptionSpec(name: "--grace", value: .duration),
            ]
        case .demo:
            [
                OptionSpec(name: "--speed", value: .text),
                OptionSpec(name: "--plain", value: .none),
            ]
        case .daemon:
            [
                OptionSpec(name: "--state-dir", value: .text),
                OptionSpec(name: "--socket", value: .text),
                OptionSpec(name: "--grace", value: .duration),
                OptionSpec(name: "--kill-grace", value: .duration),
            ]
        case .submit:
            [
                OptionSpec(name: "--require", value: .text),
                OptionSpec(name: "--condition", value: .text, repeatable: true),
                OptionSpec(name: "--tag", value: .text, repeatable: true),
                OptionSpec(name: "--unique", value: .text),
                OptionSpec(name: "--on-duplicate", value: .text),
                OptionSpec(name: "--delay", value: .duration),
                OptionSpec(name: "--deadline", value: .duration),
                OptionSpec(name: "--timeout", value: .duration),
                OptionSpec(name: "--retries", value: .text),
                OptionSpec(name: "--backoff", value: .duration),
                OptionSpec(name: "--every", value: .duration),
                OptionSpec(name: "--flex", value: .duration),
                OptionSpec(name: "--stop-on-loss", value: .none),
                OptionSpec(name: "--name", value: .text),
                OptionSpec(name: "--wait", value: .none),
            ]
        case .jobs:
            [OptionSpec(name: "--json", value: .none), OptionSpec(name: "--all", value: .none)]
        case .cancel:
            [OptionSpec(name: "--tag", value: .text), OptionSpec(name: "--unique", value: .text)]
        case .logs:
            [OptionSpec(name: "--json", value: .none)]
        case .setCondition:
            []
        }
    }

    /// The options of `subcommand` that take a duration (`DUR`).
    ///
    /// Every one of them follows the same rule, that of ``DurationParser/parse(_:option:)``: from `0s` to
    /// the longest duration, never negative, where `0s` means "no time at all" (see ``Command``).
    public static func durationOptions(for subcommand: Command.Subcommand) -> [String] {
        specs(for: subcommand).filter { $0.value == .duration }.map(\.name)
    }

    /// Parses the arguments that follow the program name, with the global `--verbose` flag, which comes
    /// before the subcommand (`syncgate --verbose watch`) and turns on SyncGate's log on stderr.
    ///
    /// - Throws: ``UsageError`` for anything the tool does not accept.
    public static func parseInvocation(_ arguments: [String]) throws(UsageError) -> (command: Command, verbose: Bool) {
        var rest = arguments[...]
        var verbose = false
        while rest.first == "--verbose" {
            if verbose { throw UsageError("option '--verbose' given more than once") }
            verbose = true
            rest = rest.dropFirst()
        }
        return (try parse(Array(rest)), verbose)
    }

    /// Parses the arguments that follow the program name.
    ///
    /// - Throws: ``UsageError`` for anything the tool does not accept.
    public static func parse(_ arguments: [String]) throws(UsageError) -> Command {
        let names = Command.Subcommand.allCases.map(\.rawValue).joined(separator: ", ")
        guard let first = arguments.first else {
            throw UsageError("missing subcommand (one of \(names))")
        }
        switch first {
        case "-h", "--help":
            return .help(nil)
        case "--version":
            return .version
        case "help":
            guard arguments.count > 1 else { return .help(nil) }
            guard let topic = Command.Subcommand(rawValue: arguments[1]) else {
                throw UsageError("unknown subcommand '\(arguments[1])' for help (one of \(names))")
            }
            if arguments.count > 2 { throw UsageError("unexpected argument '\(arguments[2])' for 'help'") }
            return .help(topic)
        default:
            break
        }
        guard let subcommand = Command.Subcommand(rawValue: first) else {
            if first.hasPrefix("-") { throw UsageError("unknown option '\(first)' (a subcommand comes first)") }
            throw UsageError("unknown subcommand '\(first)' (one of \(names))")
        }
        let rest = Array(arguments.dropFirst())
        guard let (values, tail) = try scan(rest, subcommand: subcommand) else { return .help(subcommand) }
        return try build(subcommand, values: values, tail: tail)
    }

    /// Reads options up to the end (or, for `run`, up to the command); `nil` when help was asked for.
    private static func scan(
        _ arguments: [String],
        subcommand: Command.Subcommand
    ) throws(UsageError) -> (values: [String: [String]], tail: [String])? {
        let specs = specs(for: subcommand)
        var values: [String: [String]] = [:]
        var positional: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" && (subcommand == .run || subcommand == .submit) {
                return (values, Array(arguments[index...]))
            }
            if argument == "-h" || argument == "--help" { return nil }
            guard argument.hasPrefix("-"), argument != "-" else {
                if subcommand == .run || subcommand == .submit { return (values, Array(arguments[(index - 1)...])) }
                if [.cancel, .logs, .setCondition].contains(subcommand) {
                    positional.append(argument)
                    continue
                }
                throw UsageError("unexpected argument '\(argument)' for '\(subcommand.rawValue)'")
            }
            let name: String
            var inline: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            } else {
                name = argument
            }
            guard let spec = specs.first(where: { $0.name == name }) else {
                throw UsageError("unknown option '\(name)' for '\(subcommand.rawValue)'")
            }
            if values[name] != nil && !spec.repeatable {
                throw UsageError("option '\(name)' given more than once")
            }
            if spec.takesValue {
                if inline == nil {
                    guard index < arguments.count else { throw UsageError("option '\(name)' needs a value") }
                    inline = arguments[index]
                    index += 1
                }
                values[name, default: []].append(inline ?? "")
            } else {
                if inline != nil { throw UsageError("option '\(name)' takes no value") }
                values[name, default: []].append("")
            }
        }
        return (values, positional)
    }

    private static func build(
        _ subcommand: Command.Subcommand,
        values: [String: [String]],
        tail: [String]
    ) throws(UsageError) -> Command {
        switch subcommand {
        case .status:
            return .status(json: values["--json"] != nil)
        case .watch:
            return .watch(json: values["--json"] != nil)
        case .wait:
            let requirements = try requiredRequirements(values, subcommand: subcommand)
            return .wait(
                Command.WaitOptions(
                    requirements: requirements,
                    conditions: try conditions(values),
                    timeout: try duration(values, "--timeout")
                )
            )
        case .run:
            let requirements = try requiredRequirements(values, subcommand: subcommand)
            guard !tail.isEmpty else { throw UsageError("'run' needs a command after '--'") }
            var options = Command.RunOptions(
                requirements: requirements, conditions: try conditions(values), command: tail)
            options.timeout = try duration(values, "--timeout")
            if let text = values["--retries"]?.first {
                guard let count = Int(text), retriesRange.contains(count) else {
                    throw UsageError(
                        "invalid count '\(text)' for --retries: expected a whole number from "
                            + "\(retriesRange.lowerBound) to \(retriesRange.upperBound)"
                    )
                }
                options.retries = count
            }
            options.backoff = try duration(values, "--backoff") ?? options.backoff
            options.gracePeriod = try duration(values, "--grace") ?? options.gracePeriod
            options.stopOnLoss = values["--stop-on-loss"] != nil
            return .run(options)
        case .demo:
            var options = Command.DemoOptions()
            if let text = values["--speed"]?.first {
                guard let speed = Double(text), speedRange.contains(speed) else {
                    throw UsageError(
                        "invalid speed '\(text)' for --speed: expected a number from "
                            + "\(speedRange.lowerBound) to \(Int(speedRange.upperBound))"
                    )
                }
                options.speed = speed
            }
            options.plain = values["--plain"] != nil
            return .demo(options)
        case .daemon:
            var options = Command.DaemonOptions()
            options.stateDirectory = try path(values, "--state-dir")
            options.socketPath = try path(values, "--socket")
            options.gracePeriod = try duration(values, "--grace") ?? options.gracePeriod
            options.killGrace = try duration(values, "--kill-grace") ?? options.killGrace
            return .daemon(options)
        case .submit:
            return .submit(try submission(values, tail: tail))
        case .jobs:
            return .jobs(json: values["--json"] != nil, all: values["--all"] != nil)
        case .cancel:
            let selectors = [tail.first, values["--tag"]?.first, values["--unique"]?.first].compactMap { $0 }
            if tail.count > 1 { throw UsageError("unexpected argument '\(tail[1])' for 'cancel'") }
            guard selectors.count == 1 else {
                throw UsageError("'cancel' needs exactly one of ID, --tag TAG, --unique KEY")
            }
            if selectors[0].isEmpty { throw UsageError("empty value for 'cancel'") }
            return .cancel(
                DaemonRequest(
                    type: .cancel, id: tail.first, tag: values["--tag"]?.first, uniqueKey: values["--unique"]?.first))
        case .logs:
            guard let id = tail.first, !id.isEmpty else { throw UsageError("'logs' needs a job ID") }
            if tail.count > 1 { throw UsageError("unexpected argument '\(tail[1])' for 'logs'") }
            return .logs(id: id, json: values["--json"] != nil)
        case .setCondition:
            guard tail.count == 2 else { throw UsageError("'set-condition' needs NAME and on or off") }
            guard !tail[0].trimmingSpaces.isEmpty else { throw UsageError("empty condition name for 'set-condition'") }
            try checkLabels([tail[0]], option: "'set-condition'")
            switch tail[1] {
            case "on": return .setCondition(name: tail[0], on: true)
            case "off": return .setCondition(name: tail[0], on: false)
            default: throw UsageError("invalid state '\(tail[1])' for 'set-condition': expected on or off")
            }
        }
    }

    /// The range of `submit --retries`, the same as `run`'s.
    private static func retries(_ values: [String: [String]]) throws(UsageError) -> Int? {
        guard let text = values["--retries"]?.first else { return nil }
        guard let count = Int(text), retriesRange.contains(count) else {
            throw UsageError(
                "invalid count '\(text)' for --retries: expected a whole number from "
                    + "\(retriesRange.lowerBound) to \(retriesRange.upperBound)"
            )
        }
        return count
    }

    /// An absolute path given to `option`.
    private static func path(_ values: [String: [String]], _ option: String) throws(UsageError) -> String? {
        guard let text = values[option]?.first else { return nil }
        guard text.hasPrefix("/") else { throw UsageError("invalid path '\(text)' for \(option): must be absolute") }
        return text
    }

    /// The `submit` request: every value checked here, so mistakes exit 2 before the daemon is asked.
    private static func submission(_ values: [String: [String]], tail: [String]) throws(UsageError)
        -> DaemonRequest.Submission
    {
        guard !tail.isEmpty, !tail[0].isEmpty else { throw UsageError("'submit' needs a command after '--'") }
        let require = values["--require"]?.first ?? "network"
        _ = try RequirementListParser.parse(require, option: "--require")
        var submission = DaemonRequest.Submission(
            command: tail, workingDirectory: FileManager.default.currentDirectoryPath, require: require)
        submission.conditions = try conditions(values).map(\.name).sorted()
        submission.tags = values["--tag"] ?? []
        if submission.tags.contains(where: \.isEmpty) { throw UsageError("empty tag for --tag") }
        if let name = values["--name"]?.first {
            guard !name.isEmpty else { throw UsageError("empty name for --name") }
            submission.name = name
        }
        if let key = values["--unique"]?.first {
            guard !key.isEmpty else { throw UsageError("empty key for --unique") }
            submission.uniqueKey = key
        }
        for (option, labels) in [
            ("--condition", submission.conditions), ("--tag", submission.tags),
            ("--name", submission.name.map { [$0] }),
            ("--unique", submission.uniqueKey.map { [$0] }),
        ] {
            try checkLabels(labels ?? [], option: option)
        }
        if let policy = values["--on-duplicate"]?.first {
            guard ["keep", "replace", "append"].contains(policy) else {
                throw UsageError("invalid policy '\(policy)' for --on-duplicate: expected keep, replace or append")
            }
            guard submission.uniqueKey != nil else { throw UsageError("option '--on-duplicate' needs --unique KEY") }
            submission.onDuplicate = policy
        }
        for (option, keyPath) in [
            ("--delay", \DaemonRequest.Submission.delay), ("--deadline", \.deadline), ("--timeout", \.timeout),
            ("--backoff", \.backoff), ("--every", \.every), ("--flex", \.flex),
        ] {
            if let text = values[option]?.first {
                _ = try DurationParser.parse(text, option: option)
                submission[keyPath: keyPath] = text
            }
        }
        if submission.flex != nil && submission.every == nil { throw UsageError("option '--flex' needs --every") }
        _ = try submission.periodDurations(everyOption: "--every", flexOption: "--flex")
        submission.retries = try retries(values) ?? 0
        if submission.backoff != nil && submission.retries == 0 {
            throw UsageError("option '--backoff' needs --retries N")
        }
        submission.stopOnLoss = values["--stop-on-loss"] != nil
        submission.wait = values["--wait"] != nil
        if submission.wait && submission.every != nil {
            throw UsageError("option '--wait' cannot be used with --every (a periodic job has no last outcome)")
        }
        return submission
    }

    /// Checks each of `labels` (the values of `option`) against ``DaemonLimits/labelProblem(_:)``, and
    /// their count.
    private static func checkLabels(_ labels: [String], option: String) throws(UsageError) {
        guard labels.count <= DaemonLimits.maximumLabels else {
            throw UsageError("option '\(option)' given \(labels.count) times; at most \(DaemonLimits.maximumLabels)")
        }
        for label in labels {
            if let problem = DaemonLimits.labelProblem(label) {
                throw UsageError("invalid value '\(DaemonLimits.shown(label))' for \(option): \(problem)")
            }
        }
    }

    /// The duration given to `option`, or `nil` when it was not given.
    private static func duration(_ values: [String: [String]], _ option: String) throws(UsageError) -> Duration? {
        guard let text = values[option]?.first else { return nil }
        return try DurationParser.parse(text, option: option)
    }

    private static func requiredRequirements(
        _ values: [String: [String]],
        subcommand: Command.Subcommand
    ) throws(UsageError) -> SyncRequirements {
        guard let text = values["--require"]?.first else {
            throw UsageError("'\(subcommand.rawValue)' needs --require LIST (such as --require network,unmetered)")
        }
        return try RequirementListParser.parse(text, option: "--require")
    }

    private static func conditions(_ values: [String: [String]]) throws(UsageError) -> Set<SyncCondition> {
        var conditions: Set<SyncCondition> = []
        for name in values["--condition"] ?? [] {
            guard !name.trimmingSpaces.isEmpty else { throw UsageError("empty condition name for --condition") }
            conditions.insert(SyncCondition(name))
        }
        return conditions
    }
}
