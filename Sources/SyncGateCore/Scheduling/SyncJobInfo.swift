import Foundation

/// One job as a query finds it: unfinished, or finished and still kept by the history's retention.
///
/// Times are offsets on the scheduler's clock from the moment the scheduler was created.
///
/// An *attempt* is a try that counts against the job's retry budget (``RetryPolicy/maxAttempts``): a
/// failure ends it and the retry is the next attempt. A *run* is every start of the job's operation: a
/// requeue after lost requirements (``RequirementsLostPolicy/cancelAndRequeue``) runs the same attempt
/// again, and so does a durable job restored after its process died during the attempt. So
/// ``attempts`` is the attempt number of ``SyncJobContext/attempt``, ``SyncSchedulerEvent/started(id:attempt:)``
/// and ``SyncJobState/running(attempt:)``, and ``runs`` counts the starts in this scheduler (at least
/// ``attempts``, except for a restored durable job, whose earlier attempts ran in an earlier process).
public struct SyncJobInfo: Sendable, Identifiable, CustomStringConvertible {
    /// How a periodic job's series has gone so far.
    public struct Periods: Sendable, Hashable {
        /// Periods whose run succeeded.
        public var succeeded: Int
        /// Periods whose run failed after its retries.
        public var failed: Int
        /// Periods skipped because their window closed before the requirements let a run start. For a
        /// calendar job, also the occurrences merged into a catch-up run or covered by a run that started
        /// after them; when more than a few dozen passed at once (a long downtime, a large jump of the
        /// wall clock), they are counted from the local times in between, so each time inside a
        /// spring-forward gap counts as its own occurrence.
        public var skipped: Int

        /// Creates counts.
        ///
        /// - Parameters:
        ///   - succeeded: periods whose run succeeded.
        ///   - failed: periods whose run failed after its retries.
        ///   - skipped: periods skipped because their window closed first.
        public init(succeeded: Int, failed: Int, skipped: Int) {
            self.succeeded = succeeded
            self.failed = failed
            self.skipped = skipped
        }
    }

    /// The job's identifier.
    public var id: SyncJob.ID
    /// The job's state; a terminal state for a finished job.
    public var state: SyncJobState
    /// How the job ended; `nil` while it is unfinished.
    public var outcome: SyncJobOutcome?
    /// The job's tags.
    public var tags: Set<String>
    /// The job's unique key.
    public var uniqueKey: String?
    /// The jobs this one runs after (its own list, plus the job it was appended to).
    public var dependsOn: [SyncJob.ID]
    /// The number of the running or last attempt, 0 before the first: the attempts that counted against
    /// the retry budget so far, including those a restored durable job used before its restart (for a
    /// periodic job, within the current period: each period starts again at attempt 1, and between
    /// periods this reads 0).
    public var attempts: Int
    /// The starts of the job's operation in this scheduler (over all periods, for a periodic job): every
    /// attempt's first run, and its runs again after a requeue.
    public var runs: Int
    /// When the job was submitted.
    public var submittedAt: Duration
    /// When its first attempt started; `nil` if none has.
    public var firstStartedAt: Duration?
    /// When its latest attempt started; `nil` if none has.
    public var lastStartedAt: Duration?
    /// When it finished; `nil` while it is unfinished.
    public var finishedAt: Duration?
    /// For a periodic job, how its series has gone; `nil` for other jobs.
    public var periods: Periods?
    /// The progress its latest attempt last reported: while it runs, and kept after the job ends (the
    /// point a failed or cancelled job reached); `nil` before its attempt reports any (a new attempt
    /// starts with none). The same rule as ``SyncJobHandle/progress``.
    public var progress: SyncJobProgress?

    /// Why the running attempt is being stopped, or why the latest attempt was stopped, kept after the job
    /// ends (a cancelled job shows whether the app, a replacing job or the shutdown stopped it); `nil`
    /// before any stop and once a new attempt starts. The same rule as ``SyncJobHandle/stopReason``.
    public var stopReason: SyncJobStopReason? = nil

    /// For a calendar job, the wall-clock time of the occurrence its next (or current) run is for, a
    /// missed one while it waits to catch up; `nil` while a run is in progress, for other jobs, and
    /// for a calendar job that is `delayed` because its wall clock reads more than
    /// ``SyncCalendarSchedule/supportedSeconds`` from 1970 (no occurrence can be computed; it plans
    /// again when the clock is set).
    public var nextScheduledAt: Date? = nil
    /// Where an unfinished job's relaxations stand, as of the query: when each takes effect and whether it
    /// has (``SyncJobRelaxation/Status``); empty for a finished job and a job without relaxations.
    public var relaxations: [SyncJobRelaxation.Status] = []
    /// The networks the job may run on (``SyncJobOptions/allowedNetworks``); `nil` for any network.
    public var allowedNetworks: SyncNetworkAllowlist? = nil
    /// For an unfinished job, whether the network in use is not one ``allowedNetworks`` allows as of the
    /// query (always `false` without a list, once the job finished, and while the network is not
    /// monitored).
    public var isNetworkNotAllowed: Bool = false
    /// For an unfinished file-triggered job, whether it waits for a change or for quiet; `nil` while it
    /// waits for its requirements, runs or retries, once it finished, and for other jobs.
    public var fileWait: SyncFileTrigger.Wait? = nil
    /// The job's file trigger (``SyncJobOptions/fileTrigger``); `nil` for a job without one.
    public var fileTrigger: SyncFileTrigger? = nil
    /// For a delayed job (``SyncJobState/delayed(attempt:)``: an initial ``SyncJobOptions/delay``, a retry's
    /// backoff, a periodic or calendar job before its next window), when the delay ends and the job waits
    /// for its requirements again: an offset on the scheduler's clock, as ``submittedAt``; `nil` in every
    /// other state. A backoff with ``RetryPolicy/resetWhenRequirementsReturn`` may end sooner.
    public var delayedUntil: Duration? = nil
    /// How long until ``delayedUntil``, as of the query (zero once it is due); `nil` when that is `nil`.
    public var delayRemaining: Duration? = nil

    /// A line such as `upload-1: succeeded after 2 attempts`, or `upload-1: succeeded after 1 attempt
    /// (2 runs)` when a requeue ran an attempt again; a job with allowed networks ends with them:
    /// `(networks: ssid:Home,eth*)`, or, waiting while the network in use is not one of them, says so:
    /// `wifi-only: waiting for an allowed network (type:wifi)`.
    public var description: String {
        let networkWait = SyncJobHandle.networkWait(state, allowedNetworks, notAllowed: isNetworkNotAllowed)
        var line = "\(id): " + (networkWait ?? "\(state)")
        if attempts > 0 { line += " after \(attempts) attempt\(attempts == 1 ? "" : "s")" }
        if runs != attempts && runs > 0 { line += " (\(runs) run\(runs == 1 ? "" : "s"))" }
        if let periods {
            line += " (periods: \(periods.succeeded) succeeded, \(periods.failed) failed, \(periods.skipped) skipped)"
        }
        if let progress { line += " [\(progress)]" }
        if let stopReason { line += " (stopped: \(stopReason))" }
        if let nextScheduledAt {
            line += " (next: \(nextScheduledAt.formatted(.iso8601)))"
        } else if let delayRemaining {
            line += " (for \(SyncJobRelaxation.format(delayRemaining)) more)"
        }
        if let fileWait { line += " (\(fileWait))" }
        line += relaxations.summarySuffix
        if networkWait == nil, let allowedNetworks { line += " (networks: \(allowedNetworks))" }
        return line
    }
}
