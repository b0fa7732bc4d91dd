/// Decides which statuses `syncgate watch` prints: in JSON every one, in text only those whose line would
/// read differently from the last one printed.
///
/// The environment's stream yields a status whenever any field changes, and the exact free space moves by
/// bytes as files are written. The text line shows free space in binary units with one decimal, so most
/// of those changes would print a line that repeats the one before it but for the time; this filter drops
/// them. JSON carries the exact byte counts, so there every change is a change.
package struct WatchLineFilter: Sendable {
    private let json: Bool
    private let style: TerminalStyle
    private var lastSummary: String?

    /// Creates a filter for `watch`'s output format.
    package init(json: Bool, style: TerminalStyle) {
        self.json = json
        self.style = style
    }

    /// The line to print for `report`, or `nil` when its text would repeat the last line printed.
    package mutating func line(for report: StatusReport) -> String? {
        if json { return report.json.compact }
        let summary = report.watchSummary(style: style)
        guard summary != lastSummary else { return nil }
        lastSummary = summary
        return report.watchLine(summary: summary, style: style)
    }
}
