/// One response of the daemon's wire format (``DaemonProtocol``).
package struct DaemonResponse: Codable, Sendable, Equatable {
    /// One job as `syncgate jobs` lists it.
    package struct Job: Codable, Sendable, Equatable {
        /// The job's id.
        package var id: String
        /// The name given with `--name`, else the command's first word.
        package var name: String
        /// The command and its arguments.
        package var command: [String]
        /// `waiting`, `delayed`, `running`, `succeeded`, `failed`, `cancelled`, `expired`, or `kept` for a
        /// job the store keeps without running (see ``keptReason``).
        package var state: String
        /// What a waiting job waits for: requirement names and `condition NAME`.
        package var waitingFor: [String]
        /// The number of the running or last attempt (0 before the first): the tries that counted against
        /// the retries. A run stopped by a lost requirement or by the daemon's end is run again as the same
        /// attempt; a failure makes the retry the next attempt.
        package var attempts: Int
        /// Every start of the command, across daemon restarts (`syncgate logs` numbers them); absent from a
        /// daemon that does not count them.
        package var runs: Int?
        /// The last run's exit status (128 + N for a signal), if a run ended.
        package var lastExitStatus: Int32?
        /// The unique key.
        package var uniqueKey: String?
        /// The tags.
        package var tags: [String]
        /// Why the running command is being stopped, or why the last run was stopped
        /// (``SyncJobStopReason/description``: `cancelled`, `requirements-lost [network]`, `timed-out`,
        /// `replaced`, `shutdown`); absent when the last run was not stopped.
        package var lastStopReason: String? = nil
        /// For a calendar job, the wall-clock time (ISO 8601, UTC) its next run is for, a missed one while
        /// it waits to catch up; absent while it runs and for other jobs.
        package var nextScheduledAt: String? = nil
        /// For a delayed job (`submit --delay`, a retry's backoff, an `--every` job between its windows, a
        /// calendar job before its time), the wall-clock time (ISO 8601, UTC, to the second, rounded up)
        /// when the delay ends and the job waits for its requirements again; absent in other states.
        package var delayedUntil: String? = nil
        /// The job's relaxations (`submit --relax`): what each relaxes, to what, after how long, and
        /// whether it is in effect; absent for a job without relaxations.
        package var relaxations: [Relaxation]? = nil
        /// The networks the job may run on (`submit --network`, in its syntax); absent for any network.
        package var networks: String? = nil
        /// For a file-triggered job (`submit --on-change`), the watched paths; absent for other jobs.
        package var onChange: [String]? = nil
        /// For a file-triggered job, its quiet period in seconds; absent for other jobs.
        package var quietSeconds: Double? = nil
        /// For a file-triggered job, `change` while it waits for a change, `quiet` while it waits for the
        /// changes to stop; absent otherwise (it waits for its requirements, runs, or has no trigger).
        package var fileWait: String? = nil
        /// For a job in state `kept` (in the store, but the daemon's restore could not submit it), why:
        /// ``KeptDurableJob/Reason``'s description, such as `rejected by the scheduler: …`; absent for
        /// other jobs. `cancel ID` discards it.
        package var keptReason: String? = nil
    }

    /// One relaxation of a job as `syncgate jobs` shows it (`SyncJobRelaxation.Status`).
    package struct Relaxation: Codable, Sendable, Equatable {
        /// The requirement's name (`unmetered`), or `condition NAME`.
        package var relaxed: String
        /// The requirement names that replace it; empty when it is dropped.
        package var replacement: [String]
        /// How long the job waits before it takes effect, in seconds.
        package var afterSeconds: Double
        /// Whether it is in effect.
        package var applied: Bool
        /// How long until it takes effect, in seconds, as of the response; 0 once applied.
        package var remainingSeconds: Double
        /// One line such as `unmetered dropped in 2d 3h` or `external-power → battery-not-low`.
        package var summary: String

        /// Creates a relaxation.
        package init(
            relaxed: String, replacement: [String], afterSeconds: Double, applied: Bool, remainingSeconds: Double,
            summary: String
        ) {
            self.relaxed = relaxed
            self.replacement = replacement
            self.afterSeconds = afterSeconds
            self.applied = applied
            self.remainingSeconds = remainingSeconds
            self.summary = summary
        }
    }

    /// One run of a job as `syncgate logs` shows it.
    package struct Run: Codable, Sendable, Equatable {
        /// The run's number for this job, from 1.
        package var run: Int
        /// The attempt this run belongs to (`$SYNCGATE_ATTEMPT`, the `attempts` of `jobs`).
        package var attempt: Int
        /// When it started (ISO 8601).
        package var startedAt: String
        /// When it ended, if it did.
        package var endedAt: String?
        /// Its exit status (128 + N for a signal), if it ended.
        package var exitStatus: Int32?
        /// Whether the daemon stopped it (requirements lost, cancelled, shut down or killed).
        package var interrupted: Bool
        /// Its stdout, at most the run-log cap.
        package var stdout: String
        /// Its stderr, at most the run-log cap.
        package var stderr: String
        /// True when its output was deleted to keep the job's output within the run log's bounds
        /// (``RunLog/keptRunOutputs``, ``RunLog/jobOutputLimit``); absent otherwise.
        package var outputDropped: Bool?
        /// Why the daemon stopped the run (``SyncJobStopReason/description``); absent when it did not, or
        /// when the run was cut short by the daemon's death.
        package var stopReason: String? = nil

        /// Creates a run.
        package init(
            run: Int, attempt: Int, startedAt: String, endedAt: String?, exitStatus: Int32?, interrupted: Bool,
            stdout: String, stderr: String, outputDropped: Bool? = nil
        ) {
            self.run = run
            self.attempt = attempt
            self.startedAt = startedAt
            self.endedAt = endedAt
            self.exitStatus = exitStatus
            self.interrupted = interrupted
            self.stdout = stdout
            self.stderr = stderr
            self.outputDropped = outputDropped
        }
    }

    /// Always ``DaemonProtocol/version``.
    package var version: Int
    /// Whether the request was carried out.
    package var ok: Bool
    /// Why not, when `ok` is false.
    package var error: String?
    /// The job id of `submit`.
    package var id: String?
    /// The jobs of `jobs`.
    package var jobs: [Job]?
    /// The runs of `logs`.
    package var runs: [Run]?
    /// How many jobs `cancel` cancelled: those whose end is on disk, so that no restart runs them again.
    package var cancelled: Int?
    /// How many jobs `cancel` stopped whose end is not on disk yet (its write failed, such as on a full
    /// disk, or the job had not ended when the daemon answered); absent when none. The daemon keeps
    /// writing it; a restart before it succeeds brings these jobs back.
    package var notWritten: Int?
    /// How many jobs kept in the store without running `cancel` discarded (their end is on disk, and
    /// ``cancelled`` counts them too); absent when none.
    package var discarded: Int?
    /// With ``notWritten``: the last write error.
    package var writeError: String?
    /// The outcome on the second line of `submit --wait`: `succeeded`, `failed`, `cancelled`, `expired`.
    package var outcome: String?
    /// The last run's exit status on that line.
    package var exitStatus: Int32?
    /// `true` on a refusal for want of room (every connection slot taken, no file descriptor free): the
    /// request was not read, and the same request may be sent again shortly; absent otherwise.
    package var busy: Bool?

    /// Creates a response of the current version.
    package init(
        ok: Bool, error: String? = nil, id: String? = nil, jobs: [Job]? = nil, runs: [Run]? = nil,
        cancelled: Int? = nil, notWritten: Int? = nil, writeError: String? = nil, outcome: String? = nil,
        exitStatus: Int32? = nil, discarded: Int? = nil
    ) {
        self.version = DaemonProtocol.version
        self.ok = ok
        self.error = error
        self.id = id
        self.jobs = jobs
        self.runs = runs
        self.cancelled = cancelled
        self.notWritten = notWritten
        self.writeError = writeError
        self.outcome = outcome
        self.exitStatus = exitStatus
        self.discarded = discarded
    }

    /// A refusal.
    package static func failure(_ message: String) -> DaemonResponse {
        DaemonResponse(ok: false, error: message)
    }

    /// A refusal for want of room (``busy``): the request was not read.
    package static func busy(_ message: String) -> DaemonResponse {
        var response = DaemonResponse(ok: false, error: message)
        response.busy = true
        return response
    }
}
