/// Turns the arguments of `syncgate` (without the program name) into a ``Command``.
///
/// Options follow their subcommand, as `--name VALUE` or `--name=VALUE`; `-h` and `--help` print help
/// wherever they appear before `run`'s command. Every mistake throws a ``UsageError`` with one line that
/// names the option or argument and the value given. What each subcommand accepts is its declaration
/// (``Subcommand``), among ``Subcommands/all``.
package enum CommandLineParser {
    /// The options of `subcommand` that take a duration (`DUR`).
    ///
    /// Every one of them follows the same rule, that of ``DurationParser/parse(_:option:)``: from `0s` to
    /// the longest duration, never negative, where `0s` means "no time at all".
    package static func durationOptions(for subcommand: any Subcommand.Type) -> [String] {
        subcommand.options.filter { $0.value == .duration }.map(\.name)
    }

    /// Parses the arguments that follow the program name, with the global `--verbose` flag, which comes
    /// before the subcommand (`syncgate --verbose watch`) and turns on SyncGate's log on stderr.
    ///
    /// - Throws: ``UsageError`` for anything the tool does not accept.
    package static func parseInvocation(_ arguments: [String]) throws(UsageError) -> (command: Command, verbose: Bool) {
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
    package static func parse(_ arguments: [String]) throws(UsageError) -> Command {
        let names = Subcommands.all.map { $0.name }.joined(separator: ", ")
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
            guard let topic = Subcommands.named(arguments[1]) else {
                throw UsageError("unknown subcommand '\(arguments[1])' for help (one of \(names))")
            }
            if arguments.count > 2 { throw UsageError("unexpected argument '\(arguments[2])' for 'help'") }
            return .help(topic)
        default:
            break
        }
        guard let subcommand = Subcommands.named(first) else {
            if first.hasPrefix("-") { throw UsageError("unknown option '\(first)' (a subcommand comes first)") }
            throw UsageError("unknown subcommand '\(first)' (one of \(names))")
        }
        guard let parsed = try scan(Array(arguments.dropFirst()), for: subcommand) else { return .help(subcommand) }
        return .invoke(try subcommand.init(parsing: parsed))
    }

    /// Reads options up to the end (or, for a command operand, up to the command); `nil` when help was
    /// asked for.
    private static func scan(
        _ arguments: [String],
        for subcommand: any Subcommand.Type
    ) throws(UsageError) -> ParsedArguments? {
        let options = subcommand.options
        var parsed = ParsedArguments(subcommand: subcommand.name)
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" && subcommand.operands == .command {
                parsed.operands = Array(arguments[index...])
                return parsed
            }
            if argument == "-h" || argument == "--help" { return nil }
            guard argument.hasPrefix("-"), argument != "-" else {
                switch subcommand.operands {
                case .command:
                    parsed.operands = Array(arguments[(index - 1)...])
                    return parsed
                case .arguments:
                    parsed.operands.append(argument)
                    continue
                case .none:
                    throw UsageError("unexpected argument '\(argument)' for '\(subcommand.name)'")
                }
            }
            let name: String
            var inline: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            } else {
                name = argument
            }
            guard let option = options.first(where: { $0.name == name }) else {
                throw UsageError("unknown option '\(name)' for '\(subcommand.name)'")
            }
            if parsed.values[name] != nil && !option.repeatable {
                throw UsageError("option '\(name)' given more than once")
            }
            if option.takesValue {
                if inline == nil {
                    guard index < arguments.count else { throw UsageError("option '\(name)' needs a value") }
                    inline = arguments[index]
                    index += 1
                }
                parsed.values[name, default: []].append(inline ?? "")
            } else {
                if inline != nil { throw UsageError("option '\(name)' takes no value") }
                parsed.values[name, default: []].append("")
            }
        }
        return parsed
    }
}
