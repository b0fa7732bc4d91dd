import Foundation
import SyncGate
import SyncGateCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `syncgate submit`: queues a command with the daemon and prints the job's id; with `--wait`, waits for
/// the outcome and exits with the command's status.
///
/// Every value is checked on the command line, so a mistake exits 2 before the daemon is asked.
package struct SubmitCommand: Subcommand {
    /// `submit`.
    package static let name = "submit"
    /// The row under USAGE.
    package static let synopsis = "syncgate submit [options] -- COMMAND [ARGS...]"
    /// The summary under USAGE.
    package static let summary = "queue a command with the daemon"
    /// The options, in the order of the help.
    package static let options = [
        CommandLineOption(
            "--require", .text("LIST"), help: ["the requirements (default network; see 'syncgate help run')"]),
        ParsedArguments.networkOption,
        CommandLineOption(
            "--condition", .text("NAME"), repeatable: true,
            help: ["also require an app condition (syncgate set-condition)"]),
        CommandLineOption("--name", .text("NAME"), help: ["the name in listings (default: the command)"]),
        CommandLineOption(
            "--tag", .text("TAG"), repeatable: true, help: ["a tag for 'cancel --tag' (repeatable, up to 64)"]),
        CommandLineOption(
            "--unique", .text("KEY"), help: ["at most one unfinished job per KEY, with --on-duplicate:"]),
        CommandLineOption(
            "--on-duplicate", .text("POLICY"),
            help: ["keep (default: the existing job stays), replace, append (after it succeeds)"]),
        CommandLineOption("--delay", .duration, help: ["do not start before DUR has passed; 0s is no delay"]),
        CommandLineOption(
            "--deadline", .duration, help: ["expire if not started within DUR; 0s expires unless it starts now"]),
        CommandLineOption(
            "--timeout", .duration, help: ["stop a run that takes longer than DUR; 0s stops runs at once"]),
        CommandLineOption("--retries", .text("N"), help: ["retry a failing run up to N times (0...1000)"]),
        CommandLineOption(
            "--backoff", .duration, help: ["the first retry's delay, doubling (default 1s); 0s retries at once"]),
        CommandLineOption(
            "--every", .duration,
            help: [
                "run every DUR, at least 1m (0s and other shorter periods are",
                "refused)",
            ]),
        CommandLineOption(
            "--flex", .duration,
            help: [
                "the window at the end of each period in which a run may start",
                "(default a quarter of --every; shorter than it; 0s is refused:",
                "it must be positive)",
            ]),
        CommandLineOption(
            "--on-calendar", .text("WHEN"),
            help: [
                "run at wall-clock times, systemd OnCalendar= syntax: '*-*-* 02:00',",
                "'Mon,Thu 18:30', '*:15', 'daily' (see docs/CLI.md)",
            ]),
        CommandLineOption(
            "--window", .duration,
            help: [
                "how long after each time a run may still start (default 1h;", "0s is refused: it must be positive)",
            ]),
        CommandLineOption(
            "--randomized-delay", .duration,
            help: ["delay each run by up to DUR, shorter than --window; 0s is none"]),
        CommandLineOption(
            "--catch-up", .text("POLICY"), help: ["a missed time: once (default, run it once later) or skip"]),
        CommandLineOption("--time-zone", .text("ZONE"), help: ["the calendar's IANA zone (default: the daemon's)"]),
        CommandLineOption(
            "--on-change", .text("PATH"), repeatable: true,
            help: [
                "run when files under PATH (a directory, with everything under it,",
                "or a file) change, once they are quiet (repeatable, up to 64)",
            ]),
        CommandLineOption(
            "--quiet", .duration,
            help: ["how long changes must have stopped before a run (default 5s);", "0s runs at the first change"]),
        CommandLineOption(
            "--relax", .text("SPEC"), repeatable: true,
            help: [
                "relax a requirement or condition after the job waited DUR:",
                "NAME=DUR drops it, NAME=LIST@DUR replaces it with LIST",
                "(unmetered=3d, external-power=battery-not-low@12h)",
            ]),
        CommandLineOption(
            "--stop-on-loss", help: ["stop the command when the requirements go; run it again later"]),
        CommandLineOption("--wait", help: ["wait for the outcome and exit with the command's status"]),
    ]
    /// The command follows the options.
    package static let operands = CommandLineOperands.command

    /// The help of `syncgate submit`.
    package static func help(_ sections: HelpText.Sections) -> String {
        """
        USAGE: syncgate submit [options] -- COMMAND [ARGS...]

        Queues COMMAND with the daemon and prints the job's id. The command runs in the current
        directory, with stdin /dev/null, a clean environment (PATH, HOME, USER, LOGNAME, LANG,
        XDG_RUNTIME_DIR, SYNCGATE_JOB_ID, SYNCGATE_ATTEMPT, SYNCGATE_STOP_REASON_FILE) and the
        daemon's user. A command the daemon stops gets SIGTERM, with the reason (cancelled,
        requirements-lost, timed-out, replaced, shutdown) in $SYNCGATE_STOP_REASON_FILE, then
        SIGKILL after the daemon's --kill-grace. Names, tags, keys and conditions are at most
        256 bytes, without control characters.

        OPTIONS
        \(sections.options)
        \(sections.durations)
        A --relax wait starts at submission (for --every, when each period's window opens; for
        --on-calendar, at each scheduled time) and goes on across daemon restarts; NAME must be a
        requirement of --require or a --condition.

        EXAMPLES
          syncgate submit --require unmetered --unique backup --name backup -- ./backup.sh
          syncgate submit --require unmetered,external-power --relax unmetered=3d \\
            --relax external-power=battery-not-low@12h -- ./backup.sh
          syncgate submit --on-calendar '*-*-* 02:00' --require unmetered,external-power -- restic backup ~
          syncgate submit --network 'ssid:Home,eth*' --stop-on-loss -- ./sync.sh
          syncgate submit --on-change ~/Documents --quiet 5s --require unmetered -- ./sync.sh
        """
    }

    /// The job, as the request carries it.
    package var submission: DaemonRequest.Submission

    /// Creates the invocation.
    package init(_ submission: DaemonRequest.Submission) {
        self.submission = submission
    }

    /// Reads the command (needed; it runs in the current directory) and every option, each checked as
    /// the daemon checks it.
    package init(parsing arguments: ParsedArguments) throws(UsageError) {
        let tail = arguments.operands
        guard !tail.isEmpty, !tail[0].isEmpty else { throw UsageError("'submit' needs a command after '--'") }
        let require = arguments.value("--require") ?? "network"
        let requirements = try RequirementListParser.parse(require, option: "--require")
        var submission = DaemonRequest.Submission(
            command: tail, workingDirectory: try Self.workingDirectory(), require: require)
        submission.conditions = try arguments.conditions().map(\.name).sorted()
        submission.tags = arguments.values["--tag"] ?? []
        if submission.tags.contains(where: \.isEmpty) { throw UsageError("empty tag for --tag") }
        if let name = arguments.value("--name") {
            guard !name.isEmpty else { throw UsageError("empty name for --name") }
            submission.name = name
        }
        if let key = arguments.value("--unique") {
            guard !key.isEmpty else { throw UsageError("empty key for --unique") }
            submission.uniqueKey = key
        }
        for (option, labels) in [
            ("--condition", submission.conditions), ("--tag", submission.tags),
            ("--name", submission.name.map { [$0] }),
            ("--unique", submission.uniqueKey.map { [$0] }),
        ] {
            try ParsedArguments.checkLabels(labels ?? [], option: option)
        }
        if let policy = arguments.value("--on-duplicate") {
            guard DaemonRequest.Submission.duplicatePolicies.contains(policy) else {
                throw UsageError("invalid policy '\(policy)' for --on-duplicate: expected keep, replace or append")
            }
            guard submission.uniqueKey != nil else { throw UsageError("option '--on-duplicate' needs --unique KEY") }
            submission.onDuplicate = policy
        }
        for (option, keyPath) in [
            ("--delay", \DaemonRequest.Submission.delay), ("--deadline", \.deadline), ("--timeout", \.timeout),
            ("--backoff", \.backoff), ("--every", \.every), ("--flex", \.flex),
        ] {
            if let text = arguments.value(option) {
                _ = try DurationParser.parse(text, option: option)
                submission[keyPath: keyPath] = text
            }
        }
        if let timeout = submission.timeout, try DurationParser.parse(timeout, option: "--timeout") == .zero {
            throw UsageError("invalid duration '\(timeout)' for --timeout: must be positive (a run needs some time)")
        }
        if submission.flex != nil && submission.every == nil { throw UsageError("option '--flex' needs --every") }
        for (option, keyPath) in [
            ("--on-calendar", \DaemonRequest.Submission.onCalendar), ("--window", \.window),
            ("--randomized-delay", \.randomizedDelay), ("--catch-up", \.catchUp), ("--time-zone", \.timeZone),
        ] {
            submission[keyPath: keyPath] = arguments.value(option)
        }
        _ = try submission.calendarFields()
        try Self.readFileTrigger(arguments, into: &submission)
        _ = try submission.periodDurations(everyOption: "--every", flexOption: "--flex")
        submission.retries = try arguments.retries() ?? 0
        if submission.backoff != nil && submission.retries == 0 {
            throw UsageError("option '--backoff' needs --retries N")
        }
        if let relax = arguments.values["--relax"] {
            try ParsedArguments.checkLabels(relax, option: "--relax")
            _ = try RelaxationParser.parseAll(
                relax, option: "--relax", requirements: requirements,
                conditions: Set(submission.conditions.map { SyncCondition($0) }))
            submission.relax = relax
        }
        if let network = arguments.value("--network") {
            _ = try ParsedArguments.allowedNetworks(network, option: "--network")
            submission.network = network
        }
        submission.stopOnLoss = arguments.flag("--stop-on-loss")
        submission.wait = arguments.flag("--wait")
        if submission.wait && submission.every != nil {
            throw UsageError("option '--wait' cannot be used with --every (a periodic job has no last outcome)")
        }
        if submission.wait && submission.onCalendar != nil {
            throw UsageError("option '--wait' cannot be used with --on-calendar (a calendar job has no last outcome)")
        }
        if submission.wait && submission.onChange != nil {
            throw UsageError(
                "option '--wait' cannot be used with --on-change (a file-triggered job has no last outcome)")
        }
        if let delay = submission.delay, try DurationParser.parse(delay, option: "--delay") > .zero {
            if submission.onCalendar != nil {
                throw UsageError(
                    "option '--delay' cannot be used with --on-calendar (its occurrences say when the job runs)")
            }
            if submission.onChange != nil {
                throw UsageError(
                    "option '--delay' cannot be used with --on-change (--quiet says how long after a change it runs)")
            }
        }
        let series = [
            ("--every", submission.every), ("--on-calendar", submission.onCalendar),
            ("--on-change", submission.onChange.map { $0.joined() }),
        ].first { $0.1 != nil }?.0
        if let series, submission.deadline != nil {
            throw UsageError("option '--deadline' cannot be used with \(series) (each run has its own window or wait)")
        }
        if let series, submission.onDuplicate == "append" {
            throw UsageError(
                "option '--on-duplicate append' cannot be used with \(series) (the series never ends, so nothing runs after it)"
            )
        }
        // Last, what the scheduler itself would refuse (a combination of options), named by option.
        _ = try submission.jobOptions()
        self.submission = submission
    }

    /// The current directory, where the command will run; a usage error when it cannot be read (it was
    /// removed, or a directory above it cannot be searched).
    static func workingDirectory() throws(UsageError) -> String {
        switch SystemBytes.readCurrentDirectory() {
        case .success(let directory): return directory
        case .failure(let error):
            throw UsageError(
                "cannot read the current directory, where 'submit' runs the command: "
                    + "\(SystemErrorText.described(error.code)); run it from a directory that exists")
        }
    }

    /// Reads `--on-change` (each path made absolute from the current directory, and required to be an
    /// existing directory or file; its bytes kept as given, UTF-8 or not, in SystemBytes' text form) and
    /// `--quiet`, checked as the daemon checks them.
    static func readFileTrigger(
        _ arguments: ParsedArguments, into submission: inout DaemonRequest.Submission
    ) throws(UsageError) {
        submission.quiet = arguments.value("--quiet")
        if let paths = arguments.values["--on-change"] {
            let directory = try workingDirectory()
            submission.onChange = try paths.map { path throws(UsageError) in
                guard !path.isEmpty else { throw UsageError("empty path for --on-change") }
                // Kept byte for byte (SystemBytes' text form): the watcher and the daemon's checks turn it
                // back into the argument's bytes.
                let absolute = path.hasPrefix("/") ? path : directory + "/" + path
                var information = stat()
                guard SystemBytes.withCString(absolute, { stat($0, &information) }) == 0 else {
                    throw UsageError(
                        "invalid value '\(DaemonLimits.shown(path))' for --on-change: no such file or directory")
                }
                let type = information.st_mode & S_IFMT
                guard type == S_IFDIR || type == S_IFREG else {
                    throw UsageError(
                        "invalid value '\(DaemonLimits.shown(path))' for --on-change: not a directory or a file")
                }
                return absolute
            }
        }
        _ = try submission.fileTriggerFields()
    }

    /// Queues the job and prints its id; with `--wait`, exits with its outcome (SIGINT and SIGTERM end
    /// only the wait, the job stays queued).
    package func run() async -> Int32 {
        await DaemonClient.session { client, signals throws(DaemonClient.Failure) in
            try await submit(client: client, signals: signals)
        }
    }

    private func submit(client: DaemonClient, signals: AsyncStream<Int32>) async throws(DaemonClient.Failure) -> Int32 {
        let (connection, first) = try client.send(.submit(submission))
        guard first.ok, let id = first.id, connection >= 0 else {
            if connection >= 0 { close(connection) }
            throw DaemonClient.Failure(description: DaemonLimits.escaped(first.error ?? "the daemon refused the job"))
        }
        Output.line(id)
        guard submission.wait else {
            close(connection)
            return ExitCode.success
        }
        defer { close(connection) }
        return await Self.waitForOutcome(of: id, on: connection, signals: signals)
    }

    /// The wait of `submit --wait`: reads the outcome of job `id` on `connection` (the second line of the
    /// answer) while watching `signals`, and returns the tool's exit status:
    ///
    /// - the outcome's exit status (1 when it has none), with a line on `errors` unless the job succeeded;
    /// - 1, with a line on `errors`, when the daemon answers with a refusal or the connection ends without
    ///   an outcome (the daemon stopped);
    /// - 128 + N when signal N comes first: the connection is shut down, which ends only the wait (the job
    ///   stays queued), and nothing is written to `errors`.
    ///
    /// Returns once the read has ended; `connection` stays open for the caller to close.
    package static func waitForOutcome(
        of id: String,
        on connection: Int32,
        signals: AsyncStream<Int32>,
        errors: @escaping @Sendable (String) -> Void = { Output.error($0) }
    ) async -> Int32 {
        // Set before the signal shuts the connection down, so the reader that sees the end knows its cause.
        let interrupted = LockedState(false)
        return await SignalRace.first(
            {
                guard let outcome = await DaemonClient.readOutcome(connection) else {
                    // The signal ended the read, not the daemon: the signal's status is the answer.
                    if interrupted.withLock({ $0 }) { return nil }
                    errors("the daemon stopped before job \(id) ended; it runs again when the daemon restarts")
                    return ExitCode.failure
                }
                // The daemon's texts are escaped for a terminal, as its first answer is.
                guard outcome.ok else {
                    errors(DaemonLimits.escaped(outcome.error ?? "the daemon stopped before job \(id) ended"))
                    return ExitCode.failure
                }
                if outcome.outcome != "succeeded" {
                    let detail = outcome.error.map { ": \($0)" } ?? ""
                    errors(DaemonLimits.escaped("job \(id) \(outcome.outcome ?? "ended")\(detail)"))
                }
                return outcome.exitStatus ?? ExitCode.failure
            },
            {
                for await signal in signals {
                    // The job stays queued; only the wait ends.
                    interrupted.withLock { $0 = true }
                    shutdown(connection, Int32(SHUT_RDWR))
                    return ExitCode.signaled(signal)
                }
                return nil
            },
            otherwise: ExitCode.failure)
    }
}
