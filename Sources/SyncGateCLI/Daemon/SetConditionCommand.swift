/// `syncgate set-condition NAME on|off`: sets an app condition in the daemon's environment.
package struct SetConditionCommand: Subcommand {
    /// `set-condition`.
    package static let name = "set-condition"
    /// The row under USAGE.
    package static let synopsis = "syncgate set-condition NAME on|off"
    /// The summary under USAGE.
    package static let summary = "set an app condition in the daemon"
    /// None.
    package static let options: [CommandLineOption] = []
    /// The name and the state.
    package static let operands = CommandLineOperands.arguments

    /// The help of `syncgate set-condition`.
    package static func help(_ sections: HelpText.Sections) -> String {
        """
        USAGE: syncgate set-condition NAME on|off

        Sets an app condition in the daemon's environment; jobs submitted with --condition NAME
        wait until it is on. Conditions are not kept across daemon restarts.
        """
    }

    /// The condition's name.
    package var conditionName: String
    /// Whether it holds.
    package var on: Bool

    /// Creates the invocation.
    package init(name: String, on: Bool) {
        self.conditionName = name
        self.on = on
    }

    /// Reads NAME (a label, not blank) and `on` or `off`.
    package init(parsing arguments: ParsedArguments) throws(UsageError) {
        let tail = arguments.operands
        guard tail.count == 2 else { throw UsageError("'set-condition' needs NAME and on or off") }
        guard !tail[0].trimmingSpaces.isEmpty else { throw UsageError("empty condition name for 'set-condition'") }
        try ParsedArguments.checkLabels([tail[0]], option: "'set-condition'")
        switch tail[1] {
        case "on": self.init(name: tail[0], on: true)
        case "off": self.init(name: tail[0], on: false)
        default: throw UsageError("invalid state '\(tail[1])' for 'set-condition': expected on or off")
        }
    }

    /// Asks the daemon to set the condition.
    package func run() async -> Int32 {
        await DaemonClient.session { client, _ throws(DaemonClient.Failure) in
            _ = try client.checkedRequest(.setCondition(name: conditionName, on: on))
            return ExitCode.success
        }
    }
}
