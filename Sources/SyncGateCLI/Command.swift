/// What one invocation of `syncgate` asks for, as read by ``CommandLineParser``.
package enum Command: Sendable, Equatable {
    /// Print the help of the tool (`nil`) or of one subcommand.
    case help((any Subcommand.Type)?)
    /// Print the version.
    case version
    /// Run a subcommand, parsed.
    case invoke(any Subcommand)

    /// Whether both ask for the same thing: the same help, or the same subcommand with the same values.
    package static func == (lhs: Command, rhs: Command) -> Bool {
        switch (lhs, rhs) {
        case (.help(let left), .help(let right)):
            left.map { ObjectIdentifier($0) } == right.map { ObjectIdentifier($0) }
        case (.version, .version):
            true
        case (.invoke(let left), .invoke(let right)):
            left.isEqual(to: right)
        default:
            false
        }
    }
}
