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
                  syncgate daemon [options]                    the job service (see 'syncgate daemon --help')
                  syncgate submit [options] -- COMMAND [ARGS...]
                                                               queue a command with the daemon
                  syncgate jobs [--json] [--all]               the daemon's jobs
                  syncgate cancel ID | --tag TAG | --unique KEY
                  syncgate logs [--json] ID                    a job's runs and their output
                  syncgate set-condition NAME on|off           set an app condition in the daemon
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
                until SIGINT (exit 130) or SIGTERM (exit 143). A change that would print the same text
                (free space moving by a few bytes) prints nothing.

                OPTIONS
                  --json   one JSON object per line, in the schema of 'status --json', for every change

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
        case .daemon:
            return """
                USAGE: syncgate daemon [--state-dir DIR] [--socket PATH] [--grace DUR] [--kill-grace DUR]

                Runs the job service: a durable scheduler over this machine's network and power, served on
                a Unix socket (mode 0600, in a 0700 directory) that only this user and root may use.
                Pending jobs survive restarts; a command that was running when the daemon stopped runs
                again when it starts (at least once). Logs to stderr.

                OPTIONS
                  --state-dir DIR    the jobs and run logs (default $XDG_STATE_HOME/syncgate, else
                                     ~/.local/state/syncgate; root: /var/lib/syncgate)
                  --socket PATH      the socket (default $SYNCGATE_SOCKET, else
                                     $XDG_RUNTIME_DIR/syncgate/socket, else /tmp/syncgate-UID/socket;
                                     root: /run/syncgate/socket). Its directory must be this user's,
                                     not a symbolic link and not writable by others, or it is refused
                  --grace DUR        on SIGTERM, how long running commands may go on (default 10s);
                                     0s stops them at once
                  --kill-grace DUR   then the time between their SIGTERM and SIGKILL (default 5s); 0s
                                     kills at once
                \(durations)
                """
        case .submit:
            return """
                USAGE: syncgate submit [options] -- COMMAND [ARGS...]

                Queues COMMAND with the daemon and prints the job's id. The command runs in the current
                directory, with stdin /dev/null, a clean environment (PATH, HOME, USER, LOGNAME, LANG,
                XDG_RUNTIME_DIR, SYNCGATE_JOB_ID, SYNCGATE_ATTEMPT) and the daemon's user. Names, tags,
                keys and conditions are at most 256 bytes, without control characters.

                OPTIONS
                  --require LIST         the requirements (default network; see 'syncgate help run')
                  --condition NAME       also require an app condition (syncgate set-condition)
                  --name NAME            the name in listings (default: the command)
                  --tag TAG              a tag for 'cancel --tag' (repeatable, up to 64)
                  --unique KEY           at most one unfinished job per KEY, with --on-duplicate:
                  --on-duplicate POLICY  keep (default: the existing job stays), replace, append
                  --delay DUR            do not start before DUR has passed; 0s is no delay
                  --deadline DUR         expire if not started within DUR; 0s expires unless it starts now
                  --timeout DUR          stop a run that takes longer than DUR; 0s stops runs at once
                  --retries N            retry a failing run up to N times (0...1000)
                  --backoff DUR          the first retry's delay, doubling (default 1s); 0s retries at once
                  --every DUR            run every DUR, at least 1m (0s and other shorter periods are
                                         refused)
                  --flex DUR             the window at the end of each period in which a run may start
                                         (default a quarter of --every; shorter than it; 0s is refused:
                                         it must be positive)
                  --stop-on-loss         stop the command when the requirements go; run it again later
                  --wait                 wait for the outcome and exit with the command's status
                \(durations)
                EXAMPLE
                  syncgate submit --require unmetered --unique backup --name backup -- ./backup.sh
                """
        case .jobs:
            return """
                USAGE: syncgate jobs [--json] [--all]

                Lists the daemon's unfinished jobs (with --all, also those that finished since it started):
                id, name, state, attempts, last exit status and what a waiting job waits for.
                """
        case .cancel:
            return """
                USAGE: syncgate cancel ID | --tag TAG | --unique KEY

                Cancels a job, every job with TAG, or the unfinished job with KEY. A running command gets
                SIGTERM, then SIGKILL. Exits 1 when nothing was cancelled; an ID that names no job, or a
                job that has ended, is one line on stderr ("no job with id 'ID'") and exit 1, as in 'logs'.
                """
        case .logs:
            return """
                USAGE: syncgate logs [--json] ID

                Prints every run of job ID: when it started, how it ended, its stdout and stderr (each
                kept up to 1 MiB per run). Kept across daemon restarts. An ID that names no job: one line
                on stderr ("no job with id 'ID'") and exit 1.
                """
        case .setCondition:
            return """
                USAGE: syncgate set-condition NAME on|off

                Sets an app condition in the daemon's environment; jobs submitted with --condition NAME
                wait until it is on. Conditions are not kept across daemon restarts.
                """
        }
    }
}
