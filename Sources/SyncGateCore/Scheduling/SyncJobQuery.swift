/// Which jobs ``SyncScheduler/jobs(matching:)`` returns: every criterion that is set must match.
///
/// ```swift
/// let failedUploads = scheduler.jobs(matching: SyncJobQuery(tags: ["upload"], states: [.failed]))
/// ```
public struct SyncJobQuery: Sendable, Hashable {
    /// A job's state without its details, for matching.
    public enum State: Sendable, Hashable, CaseIterable {
        /// Waiting for its requirements or a slot.
        case waiting
        /// Waiting for other jobs to end: its dependencies, its turn in a serial group, or its unique
        /// key's running job (``SyncJobState/blocked(by:)``).
        case blocked
        /// Waiting out a delay, a backoff, or a periodic job's next window.
        case delayed
        /// An attempt is running.
        case running
        /// Finished: succeeded.
        case succeeded
        /// Finished: failed.
        case failed
        /// Finished: cancelled.
        case cancelled
        /// Finished: expired.
        case expired

        /// The kind of `state`.
        public init(_ state: SyncJobState) {
            switch state {
            case .waiting: self = .waiting
            case .blocked: self = .blocked
            case .delayed: self = .delayed
            case .running: self = .running
            case .succeeded: self = .succeeded
            case .failed: self = .failed
            case .cancelled: self = .cancelled
            case .expired: self = .expired
            }
        }
    }

    /// The identifiers to match; `nil` for any.
    public var ids: Set<SyncJob.ID>?
    /// Tags of which a job must have at least one; `nil` for any.
    public var tags: Set<String>?
    /// The unique keys to match; `nil` for any.
    public var uniqueKeys: Set<String>?
    /// The states to match; `nil` for any.
    public var states: Set<State>?

    /// Creates a query; a criterion left `nil` matches every job.
    ///
    /// - Parameters:
    ///   - ids: the identifiers to match.
    ///   - tags: tags of which a job must have at least one.
    ///   - uniqueKeys: the unique keys to match.
    ///   - states: the states to match.
    public init(
        ids: Set<SyncJob.ID>? = nil, tags: Set<String>? = nil, uniqueKeys: Set<String>? = nil,
        states: Set<State>? = nil
    ) {
        self.ids = ids
        self.tags = tags
        self.uniqueKeys = uniqueKeys
        self.states = states
    }

    /// Every job, unfinished and kept in the history.
    public static let all = SyncJobQuery()

    /// Whether the job matches.
    public func matches(_ job: SyncJobInfo) -> Bool {
        if let ids, !ids.contains(job.id) { return false }
        if let tags, tags.isDisjoint(with: job.tags) { return false }
        if let uniqueKeys, !(job.uniqueKey.map(uniqueKeys.contains) ?? false) { return false }
        if let states, !states.contains(State(job.state)) { return false }
        return true
    }
}
