import Foundation

/// Every unfinished job at one moment, with its state and exactly what it waits for.
public struct SyncSchedulerSnapshot: Sendable, CustomStringConvertible {
    /// One job in a snapshot.
    public struct Job: Sendable, Hashable, Identifiable {
        /// The job's identifier.
        public var id: SyncJob.ID
        /// The job's state.
        public var state: SyncJobState
        /// The attempt running, or the next attempt to run (1 for the first).
        public var attempt: Int
        /// The job's priority.
        public var priority: SyncJobPriority
        /// The job's tags.
        public var tags: Set<String>
        /// The job's requirements.
        public var requirements: SyncRequirements
        /// The job's app-defined conditions.
        public var conditions: Set<SyncCondition>
        /// The requirements that do not hold now.
        public var unmetRequirements: SyncRequirements
        /// The conditions that do not hold now.
        public var unmetConditions: Set<SyncCondition>
        /// The job's requirements that hold only because their part of the environment is not monitored.
        public var requirementsTreatedAsMet: SyncRequirements
        /// The job's serial group.
        public var serialGroup: String?
        /// The job's unique key.
        public var uniqueKey: String?
        /// Whether the job waits for its turn: behind its serial group's head or the job it replaces.
        public var isWaitingForTurn: Bool
        /// Whether the running attempt has been asked to stop (cancelled, timed out, requirements lost).
        public var isStopping: Bool
        /// Why the running attempt is being stopped, or why the latest attempt was stopped (a requeued job
        /// waiting again shows the loss); `nil` before any stop and once a new attempt starts.
        public var stopReason: SyncJobStopReason? = nil
        /// Whether the running attempt has run past its run timeout and has not returned yet.
        public var isPastRunTimeout: Bool
        /// The jobs this one runs after (its `dependsOn`, then the job it was appended to).
        public var dependsOn: [SyncJob.ID] = []
        /// Those of ``dependsOn`` that have not finished yet.
        public var pendingDependencies: [SyncJob.ID] = []
        /// For a periodic job, how its series has gone; `nil` for other jobs.
        public var periods: SyncJobInfo.Periods?
        /// The progress the running attempt last reported.
        public var progress: SyncJobProgress?
        /// For a calendar job, the wall-clock time of the occurrence its next run is for; `nil` while a
        /// run is in progress, for other jobs, and for a calendar job whose wall clock reads beyond the
        /// occurrences' range (``SyncJobInfo/nextScheduledAt``).
        public var nextScheduledAt: Date? = nil
        /// Where the job's relaxations stand: when each takes effect and whether it has (empty for a job
        /// without relaxations). ``unmetRequirements`` and ``unmetConditions`` already read the job's
        /// requirements after those in effect.
        public var relaxations: [SyncJobRelaxation.Status] = []
        /// The networks the job may run on (``SyncJobOptions/allowedNetworks``); `nil` for any network.
        public var allowedNetworks: SyncNetworkAllowlist? = nil
        /// Whether the network in use is not one ``allowedNetworks`` allows now (always `false` without a
        /// list, and while the network is not monitored).
        public var isNetworkNotAllowed: Bool = false
        /// For a file-triggered job, whether it waits for a change or for quiet; `nil` while it waits
        /// for its requirements, runs or retries, and for other jobs.
        public var fileWait: SyncFileTrigger.Wait? = nil

        /// A line such as `upload-1: waiting for [unmetered] (account-ready not monitored, treated as met)`,
        /// or `upload-1: waiting for [unmetered] (relaxes: unmetered dropped in 2d 3h)`; a job with allowed
        /// networks says them: `upload-1: waiting for an allowed network (ssid:Home)` while the network in
        /// use is not one of them, else `(networks: ssid:Home)`.
        public var summary: String {
            var line = "\(id): \(state)"
            if let text = SyncJobHandle.networkWait(state, allowedNetworks, notAllowed: isNetworkNotAllowed) {
                line = "\(id): " + text
            } else if let allowedNetworks {
                line += " (networks: \(allowedNetworks))"
            }
            if !pendingDependencies.isEmpty {
                line += " (after \(pendingDependencies.joined(separator: ", ")))"
            } else if isWaitingForTurn {
                line += " (waiting for its turn)"
            }
            if let progress, case .running = state { line += " [\(progress)]" }
            if isPastRunTimeout { line += " (past its run timeout)" }
            if let stopReason { line += " (\(isStopping ? "stopping" : "stopped"): \(stopReason))" }
            if let nextScheduledAt { line += " (next: \(nextScheduledAt.formatted(.iso8601)))" }
            if let fileWait { line += " (\(fileWait))" }
            line += relaxations.summarySuffix
            if !requirementsTreatedAsMet.isEmpty {
                let names = requirementsTreatedAsMet.names.joined(separator: ", ")
                line += " (\(names) not monitored, treated as met)"
            }
            return line
        }
    }

    /// The unfinished jobs, in submission order.
    public var jobs: [Job]
    /// The number of attempts running.
    public var runningCount: Int
    /// The scheduler's slot count.
    public var maxConcurrentJobs: Int
    /// The environment status the scheduler last acted on.
    public var status: SyncEnvironmentStatus
    /// Whether the scheduler has been shut down.
    public var isShutDown: Bool

    /// The job with the given identifier, if it is unfinished.
    public func job(_ id: SyncJob.ID) -> Job? {
        jobs.first { $0.id == id }
    }

    /// One line per job (its ``Job/summary``), after a header with the number of unfinished jobs and the
    /// running count: `1 job, 0/4 running`, `3 jobs, 2/4 running` (a shut-down scheduler's header ends
    /// in `, shut down`).
    public var description: String {
        var header = "\(jobs.count) \(jobs.count == 1 ? "job" : "jobs"), \(runningCount)/\(maxConcurrentJobs) running"
        if isShutDown { header += ", shut down" }
        return ([header] + jobs.map(\.summary)).joined(separator: "\n")
    }
}
