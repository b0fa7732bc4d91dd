extension SyncJob {
    /// Everything about a job except its operation: what the state machine decides on.
    struct Spec: Sendable {
        var id: ID
        var requirements: SyncRequirements
        var conditions: Set<SyncCondition>
        var priority: SyncJobPriority
        var delay: Duration?
        var startDeadline: Duration?
        var runTimeout: Duration?
        var retry: RetryPolicy
        var onRequirementsLost: RequirementsLostPolicy
        var uniqueKey: String?
        var onDuplicate: DuplicatePolicy
        var serialGroup: String?
        var tags: Set<String>
    }

    /// The job without its operation.
    var spec: Spec {
        Spec(
            id: id,
            requirements: requirements,
            conditions: conditions,
            priority: priority,
            delay: delay,
            startDeadline: startDeadline,
            runTimeout: runTimeout,
            retry: retry,
            onRequirementsLost: onRequirementsLost,
            uniqueKey: uniqueKey,
            onDuplicate: onDuplicate,
            serialGroup: serialGroup,
            tags: tags
        )
    }
}
