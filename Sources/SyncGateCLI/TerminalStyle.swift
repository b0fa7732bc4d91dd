/// Whether and how output is colored and redrawn, decided once from the terminal and the environment.
///
/// Color is used only when stdout is a terminal, `NO_COLOR` is unset or empty (https://no-color.org),
/// and `TERM` is not `dumb`. A live display (redrawn in place) needs a terminal and a `TERM` other than
/// `dumb`; it does not depend on `NO_COLOR`.
package struct TerminalStyle: Sendable, Equatable {
    /// Whether ANSI colors are written.
    package var usesColor: Bool
    /// Whether output may be redrawn in place.
    package var isInteractive: Bool

    /// Creates a style with explicit choices.
    package init(usesColor: Bool, isInteractive: Bool) {
        self.usesColor = usesColor
        self.isInteractive = isInteractive
    }

    /// Decides the style for an output that is (or is not) a terminal, under the given environment variables.
    package init(isTerminal: Bool, environment: [String: String]) {
        let dumb = environment["TERM"] == "dumb"
        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
        usesColor = isTerminal && !dumb && !noColor
        isInteractive = isTerminal && !dumb
    }

    /// Plain output: no color, no redrawing.
    package static let plain = TerminalStyle(usesColor: false, isInteractive: false)

    /// The colors the tool uses.
    package enum Color: String, Sendable {
        /// Something holds or succeeded.
        case green = "32"
        /// Something does not hold or failed.
        case red = "31"
        /// Waiting, or treated as met without being monitored.
        case yellow = "33"
        /// Running.
        case cyan = "36"
        /// Secondary text.
        case dim = "2"
        /// Headings.
        case bold = "1"
    }

    /// `text` in `color` when colors are used, otherwise `text` unchanged.
    package func paint(_ text: String, _ color: Color) -> String {
        usesColor ? "\u{1B}[\(color.rawValue)m\(text)\u{1B}[0m" : text
    }
}
