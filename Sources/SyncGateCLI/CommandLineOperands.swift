/// What the arguments of a subcommand that are not options are.
package enum CommandLineOperands: Sendable, Equatable {
    /// None: any such argument is a usage error.
    case none
    /// Positional arguments, among the options (`cancel ID`, `set-condition NAME on`).
    case arguments
    /// A command: the first argument that is not an option, or everything after `--`, and all that follows
    /// (`run … -- COMMAND ARGS`).
    case command
}
