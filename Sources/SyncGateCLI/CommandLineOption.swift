/// One option of a subcommand: its spelling, what follows it, and its lines in the subcommand's help.
package struct CommandLineOption: Sendable {
    /// What follows the option's name.
    package enum Value: Sendable, Equatable {
        /// Nothing: a flag.
        case none
        /// Any text, checked when the subcommand is built; the placeholder names it in help (`LIST`).
        case text(String)
        /// A duration (`DUR` in help), read by ``DurationParser/parse(_:option:)`` for every option alike.
        case duration
    }

    /// The name, with its dashes (`--require`).
    package var name: String
    /// What follows the name.
    package var value: Value
    /// Whether the option may be given more than once, each value kept.
    package var repeatable: Bool
    /// The lines of its row in the OPTIONS section of the help; empty to leave it out.
    package var help: [String]

    /// Creates an option.
    package init(_ name: String, _ value: Value = .none, repeatable: Bool = false, help: [String] = []) {
        self.name = name
        self.value = value
        self.repeatable = repeatable
        self.help = help
    }

    /// Whether a value follows the name.
    package var takesValue: Bool { value != .none }

    /// The name and the value's placeholder, as the help shows them (`--timeout DUR`).
    package var synopsis: String {
        switch value {
        case .none: name
        case .text(let placeholder): "\(name) \(placeholder)"
        case .duration: "\(name) DUR"
        }
    }
}
