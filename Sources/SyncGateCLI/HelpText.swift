import SyncGate

/// The text of `syncgate --help` and of each subcommand's `--help`.
///
/// The tool's help lists every subcommand of ``Subcommands/all`` by its synopsis and summary; a
/// subcommand's help is its own (``Subcommand/help(_:)``), with the rows of its options rendered from
/// their declarations.
package enum HelpText {
    /// The tool's version.
    package static let version = "syncgate 0.1.0"

    /// The sections a subcommand's help shares with the rest of the tool's help.
    package struct Sections: Sendable {
        /// The rows of the subcommand's options that have help, one line each, ready to follow `OPTIONS`.
        package var options: String
        /// The list of requirement names (``HelpText/requirementList(table:)``).
        package var requirementList: String
        /// What every `DUR` is, and what `0s` means.
        package var durations: String
    }

    /// The column where the summaries under USAGE in `syncgate --help` start, after two spaces of indent.
    static let summaryColumn = 45
    /// The widest the name column of an OPTIONS section gets, indent included.
    static let optionColumnLimit = 25

    /// The list of requirement names, one line per spelling of `table` in its order: a single
    /// requirement with when it holds, a preset with the requirements it stands for, and `none`.
    package static func requirementList(table: [SyncRequirementName] = SyncRequirements.named) -> String {
        let width = (table.map(\.name.count).max() ?? 0) + 2
        var lines = ["REQUIREMENTS (a comma-separated LIST of these names)"]
        for entry in table {
            let name = entry.name + String(repeating: " ", count: width - entry.name.count)
            lines.append("  " + name + (entry.kind == .preset ? "= " : "") + entry.summary)
        }
        lines.append("On Linux, syncgate monitors network and power; account and cloud drive are not monitored and")
        lines.append("are treated as met.")
        return lines.joined(separator: "\n")
    }

    /// What every `DUR` is, and what `0s` means.
    private static let durations = """
        DUR is a number and a unit (500ms, 30s, 1.5m, 1h), from 0s to \(DurationParser.maximumHours)h and never negative;
        0s means no time at all.
        """

    /// The help for the tool (`nil`) or one subcommand, naming the requirements of `table`.
    package static func text(
        for subcommand: (any Subcommand.Type)?,
        table: [SyncRequirementName] = SyncRequirements.named
    ) -> String {
        let requirementList = requirementList(table: table)
        guard let subcommand else { return toolText(requirementList: requirementList) }
        return subcommand.help(
            Sections(options: optionRows(subcommand.options), requirementList: requirementList, durations: durations))
    }

    /// The rows of the options that have help: the name column as wide as the widest name plus three
    /// spaces (at most ``optionColumnLimit``), each further line of help indented to that column.
    static func optionRows(_ options: [CommandLineOption]) -> String {
        let shown = options.filter { !$0.help.isEmpty }
        let column = min(2 + (shown.map(\.synopsis.count).max() ?? 0) + 3, optionColumnLimit)
        let indent = String(repeating: " ", count: column)
        return shown.flatMap { option in
            let name = "  " + option.synopsis
            let first = name + String(repeating: " ", count: max(column - name.count, 2)) + option.help[0]
            return [first] + option.help.dropFirst().map { indent + $0 }
        }.joined(separator: "\n")
    }

    /// One row under USAGE: the synopsis, then the summary at ``summaryColumn`` (on a line of its own when
    /// the synopsis reaches that column).
    private static func usageRow(_ synopsis: String, _ summary: String) -> String {
        guard !summary.isEmpty else { return "  " + synopsis }
        if synopsis.count < summaryColumn {
            return "  " + synopsis + String(repeating: " ", count: summaryColumn - synopsis.count) + summary
        }
        return "  " + synopsis + "\n  " + String(repeating: " ", count: summaryColumn) + summary
    }

    private static func toolText(requirementList: String) -> String {
        let usage =
            Subcommands.all.map { usageRow($0.synopsis, $0.summary) } + [
                usageRow("syncgate help [SUBCOMMAND] | SUBCOMMAND --help | --version", ""),
                usageRow("syncgate --verbose SUBCOMMAND ...", "also log sources lost and regained to stderr"),
            ]
        return """
            syncgate: run work only when this machine's environment allows it.

            USAGE
            \(usage.joined(separator: "\n"))

            \(requirementList)

            \(durations)

            EXIT STATUS
              0    success (requirements hold; command succeeded)
              1    the tool itself failed (explained on stderr)
              2    usage error (one line on stderr)
              124  the requirements did not hold within --timeout
              126  run: the command could not be executed; 127: it was not found
              130  interrupted by SIGINT (143: SIGTERM); 141: watch's output is no longer read
              run otherwise exits with the command's status (128 + N if signal N ended it).

            Colors are used only on a terminal, and never when NO_COLOR is set.
            """
    }
}
