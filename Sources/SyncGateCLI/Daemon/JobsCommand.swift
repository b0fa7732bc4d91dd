/// `syncgate jobs`: the daemon's jobs, as a table or (`--json`) one JSON document.
package struct JobsCommand: Subcommand {
    /// `jobs`.
    package static let name = "jobs"
    /// The row under USAGE.
    package static let synopsis = "syncgate jobs [--json] [--all]"
    /// The summary under USAGE.
    package static let summary = "the daemon's jobs"
    /// `--json` and `--all`.
    package static let options = [CommandLineOption("--json"), CommandLineOption("--all")]
    /// None.
    package static let operands = CommandLineOperands.none

    /// The help of `syncgate jobs`.
    package static func help(_ sections: HelpText.Sections) -> String {
        """
        USAGE: syncgate jobs [--json] [--all]

        Lists the daemon's unfinished jobs (with --all, also the newest \(DaemonCommand.finishedJobsKept) of those that
        finished since it started; 'syncgate logs ID' reads older ones): id, name, state,
        attempts, last exit status, why its last run was stopped (cancelled, requirements-lost
        [...], timed-out, replaced, shutdown), its relaxations (--relax: what relaxes in how
        long, or what was relaxed), a calendar job's next scheduled time (UTC), what a
        file-triggered job waits for (on change of PATH, when quiet) or when another delayed
        job's delay ends (UTC), the networks it may run on (--network) and what a waiting job
        waits for (a network not allowed reads "network LIST"). A job the store keeps but the
        daemon could not restore (its --on-change path is gone, say) is in state kept, with
        "not restored: WHY" under WAITING FOR; 'syncgate cancel ID' discards it. --json also
        gives a file-triggered job's onChange paths, quietSeconds and fileWait (change or
        quiet), and a kept job's keptReason.
        """
    }

    /// Whether to print one JSON document instead of a table.
    package var json: Bool
    /// Whether to list the jobs that finished too.
    package var all: Bool

    /// Creates the invocation.
    package init(json: Bool = false, all: Bool = false) {
        self.json = json
        self.all = all
    }

    /// Reads `--json` and `--all`.
    package init(parsing arguments: ParsedArguments) {
        self.init(json: arguments.flag("--json"), all: arguments.flag("--all"))
    }

    /// Asks the daemon for its jobs and prints them.
    package func run() async -> Int32 {
        await DaemonClient.session { client, _ throws(DaemonClient.Failure) in
            let jobs = try client.checkedRequest(.jobs(all: all)).jobs ?? []
            if json {
                Output.write(
                    String(decoding: DaemonProtocol.encodeLine(JobList(version: 1, jobs: jobs)), as: UTF8.self))
            } else {
                Output.line(Self.jobTable(jobs))
            }
            return ExitCode.success
        }
    }

    /// The `jobs --json` document.
    struct JobList: Encodable {
        var version: Int
        var jobs: [DaemonResponse.Job]
    }

    /// What the NEXT column shows for a file-triggered job: `on change of PATH[, …]` while it waits for a
    /// change, `when quiet` while it waits for the changes to stop; `nil` otherwise.
    static func trigger(of job: DaemonResponse.Job) -> String? {
        guard let paths = job.onChange else { return nil }
        switch job.fileWait {
        case "change": return "on change of " + paths.joined(separator: ", ")
        case "quiet": return "when quiet"
        default: return nil
        }
    }

    /// What the WAITING FOR column shows: the requirements, conditions and jobs a job waits for, or why a
    /// kept job was not restored (`not restored: WHY`); `-` for none.
    static func waiting(_ job: DaemonResponse.Job) -> String {
        if let reason = job.keptReason { return "not restored: " + reason }
        return job.waitingFor.isEmpty ? "-" : job.waitingFor.joined(separator: ",")
    }

    /// The table of `syncgate jobs`.
    static func jobTable(_ jobs: [DaemonResponse.Job]) -> String {
        guard !jobs.isEmpty else { return "no jobs" }
        let rows =
            [
                [
                    "ID", "NAME", "STATE", "ATTEMPT", "RUNS", "LAST EXIT", "LAST STOP", "RELAXES", "NEXT", "NETWORKS",
                    "WAITING FOR",
                ]
            ]
            + jobs.map { job -> [String] in
                let relaxes = job.relaxations.map { $0.map(\.summary).joined(separator: "; ") } ?? "-"
                return [
                    job.id, job.name, job.state, String(job.attempts), job.runs.map(String.init) ?? "-",
                    job.lastExitStatus.map(String.init) ?? "-", job.lastStopReason ?? "-",
                    relaxes, job.nextScheduledAt ?? trigger(of: job) ?? job.delayedUntil ?? "-", job.networks ?? "-",
                    waiting(job),
                ].map(DaemonLimits.escaped)
            }
        let widths = (0..<11).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, text in
                column == 10 ? text : text + String(repeating: " ", count: widths[column] - text.count)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
