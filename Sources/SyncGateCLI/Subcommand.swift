/// One subcommand of `syncgate`, declared once: its name, summary, options with their help, how it parses
/// and how it runs.
///
/// The parser (``CommandLineParser``), the help (``HelpText``) and the tool's dispatch (``SyncGateTool``)
/// derive from ``Subcommands/all``, so a new subcommand is one type conforming to this protocol and one
/// entry in that list. A value of the type is one parsed invocation: two are equal when they ask for the
/// same thing.
package protocol Subcommand: Sendable, Equatable {
    /// The name on the command line (`status`, `set-condition`).
    static var name: String { get }
    /// The invocation shown under USAGE in `syncgate --help` (`syncgate status [--json]`).
    static var synopsis: String { get }
    /// What the subcommand does, in a few words after ``synopsis`` in `syncgate --help`; empty for none.
    static var summary: String { get }
    /// The options that may follow the name; `--help` lists those with help, in this order.
    static var options: [CommandLineOption] { get }
    /// What the arguments that are not options are.
    static var operands: CommandLineOperands { get }
    /// The text of `syncgate NAME --help`, from the sections it shares with the other subcommands.
    static func help(_ sections: HelpText.Sections) -> String
    /// Builds the invocation from its options and operands, checking every value.
    ///
    /// - Throws: ``UsageError`` naming the option or argument and the value given.
    init(parsing arguments: ParsedArguments) throws(UsageError)
    /// Runs the subcommand in the `syncgate` process and returns its exit status.
    func run() async -> Int32
}

extension Subcommand {
    /// Whether `other` is an invocation of the same subcommand with the same values.
    package func isEqual(to other: any Subcommand) -> Bool {
        (other as? Self) == self
    }
}
