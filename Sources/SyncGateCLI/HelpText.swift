import SyncGate

/// The text of `syncgate --help` and of each subcommand's `--help`.
public enum HelpText {
    /// The tool's version.
    public static let version = "syncgate 0.1.0"

    /// The list of requirement names, one line per spelling of `table` in its order: a single
    /// requirement with when it holds, a preset with the requirements it stands for, and `none`.
    public static func requirementList(table: [SyncRequirementName] = SyncRequirements.named) -> String {
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
    public static func text(
        for subcommand: Command.Subcommand?,
        table: [SyncRequirementName] = SyncRequirements.named
    ) -> String {
        let requirementList = requirementList(table: table)
        switch subcommand {
        case nil:
            return """
                syncgate: run work only when this machine's environment allows it.

                USAGE
                  syncgate status [--json]                     the environment now
                  syncgate watch [--json]                      one line per change, until interrupted
                  syncgate wait --require LIST [--timeout DUR] wait until the requirements hold
                  syncgate run --require LIST [options] -- COMMAND [ARGS...]
                                                               run a command when they hold
                  syncgate demo [--speed N] [--plain]          a dozen app jobs, live
                  syncgate help [SUBCOMMAND] | SUBCOMMAND --help | --version
                  syncgate --verbose SUBCOMMAND ...            also log sources lost and regained to stderr

                \(requirementList)

                \(durations)

                EXIT STATUS
                  0    success (requirements hold; command succeeded)
                  1    the tool itself failed (explained on stderr)
                  2    usage error (one line on stderr)
                  124  the requirements did not hold within --timeout
                  126  run: the command could not be executed; 127: it was not found
                  130  interrupted by SIGINT (143: SIGTERM)
                  run otherwise exits with the command's status (128 + N if signal N ended it).

                Colors are used only on a terminal, and never when NO_COLOR is set.
                """
        case .status:
            return """
                USAGE: syncgate status [--json]

                Prints the environment now: connected, interface (kind, and the default route's interface
                name), expensive, constrained, power, battery, account, cloud drive, and which requirements
                and presets hold. A part without a source is shown as "not monitored, treated as met".

                OPTIONS
                  --json   one JSON object (schemaVersion 1): network, power, account, cloudDrive, syncEvent,
                           conditions, requirements [{name, holds, monitored}], presets, met, treatedAsMet

                EXAMPLE
                  syncgate status --json | jq .met
                """
        case .watch:
            return """
                USAGE: syncgate watch [--json]

                Prints the environment now and then one line per change, each with an ISO 8601 UTC time,
                until SIGINT (exit 130) or SIGTERM (exit 143).

                OPTIONS
                  --json   one JSON object per line, in the schema of 'status --json'

                EXAMPLE
                  syncgate watch
                """
        case .wait:
            return """
                USAGE: syncgate wait --require LIST [--timeout DUR] [--condition NAME]...

                Exits 0 as soon as the requirements hold (at once when they already do), 124 when --timeout
                runs out first, 130 on SIGINT and 143 on SIGTERM.

                OPTIONS
                  --require LIST     the requirements (see below)
                  --timeout DUR      how long to wait; 0s answers from the current state without waiting
                  --condition NAME   also wait for an app-defined condition. A lone syncgate process never
                                     sets conditions, so this only ends by timeout or signal (for testing).
                \(durations)

                \(requirementList)

                EXAMPLE
                  syncgate wait --require network,unmetered --timeout 5m && ./sync.sh
                """
        case .run:
            return """
                USAGE: syncgate run --require LIST [--timeout DUR] [--retries N] [--backoff DUR]
                                    [--stop-on-loss] [--grace DUR] [--condition NAME]... -- COMMAND [ARGS...]

                Runs COMMAND as a SyncScheduler job once the requirements hold, and exits with its status.

                OPTIONS
                  --require LIST     the requirements (see below)
                  --timeout DUR      how long to wait for them before the first start; exit 124 after.
                                     0s runs the command only if they hold now
                  --retries N        run a failing command (non-zero exit) up to N more times (0...1000)
                  --backoff DUR      the delay before the first retry, doubling each time up to 32 times
                                     itself (default 1s); 0s retries at once
                  --stop-on-loss     when the requirements stop holding, send the command SIGTERM (SIGKILL
                                     after the grace period) and run it again when they return, without
                                     using up a retry
                  --grace DUR        time between SIGTERM and SIGKILL (default 5s); 0s kills at once
                  --condition NAME   also require an app-defined condition (never set by a lone syncgate)
                \(durations)
                SIGINT and SIGTERM are forwarded to the running command; the run then ends with its status.
                While no command runs, they end the run with 130 or 143.

                \(requirementList)

                EXAMPLE
                  syncgate run --require unmetered,external-power --retries 3 -- rsync -a ~/photos backup:
                """
        case .demo:
            return """
                USAGE: syncgate demo [--speed N] [--plain]

                Runs a dozen jobs an app might submit to SyncScheduler, against this machine's real network
                and power, with a simulated account (signed out at first), cloud drive and app conditions.
                Jobs wait, start, fail, retry and finish; jobs that need something this machine lacks wait
                and then expire at their start deadline. Live display on a terminal, plain lines otherwise,
                then a summary. Takes about 8 seconds.

                OPTIONS
                  --speed N   run the timeline N times faster (0.1...100; tests use 20)
                  --plain     plain lines even on a terminal

                EXAMPLE
                  syncgate demo
                """
        }
    }
}
