/// The subcommands of `syncgate`, in the order help and usage errors name them.
package enum Subcommands {
    /// Every subcommand: parsing, help and dispatch know no others.
    package static let all: [any Subcommand.Type] = [
        StatusCommand.self,
        WatchCommand.self,
        WaitCommand.self,
        RunCommand.self,
        DemoCommand.self,
        DaemonCommand.self,
        SubmitCommand.self,
        JobsCommand.self,
        CancelCommand.self,
        LogsCommand.self,
        SetConditionCommand.self,
    ]

    /// The subcommand spelled `name` on the command line, if any.
    package static func named(_ name: String) -> (any Subcommand.Type)? {
        all.first { $0.name == name }
    }
}
