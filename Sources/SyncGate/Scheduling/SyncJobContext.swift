/// What a running attempt knows about itself.
public struct SyncJobContext: Sendable {
    /// The job's identifier; a good idempotency key for the work it does.
    public let jobID: SyncJob.ID
    /// The attempt number, 1 for the first.
    public let attempt: Int
    /// The environment status the attempt started on; it satisfied the job's requirements.
    public let startStatus: SyncEnvironmentStatus
    /// The job's requirements.
    public let requirements: SyncRequirements
    /// The job's app-defined conditions.
    public let conditions: Set<SyncCondition>
    private let environment: SyncEnvironment

    init(
        jobID: SyncJob.ID,
        attempt: Int,
        startStatus: SyncEnvironmentStatus,
        requirements: SyncRequirements,
        conditions: Set<SyncCondition>,
        environment: SyncEnvironment
    ) {
        self.jobID = jobID
        self.attempt = attempt
        self.startStatus = startStatus
        self.requirements = requirements
        self.conditions = conditions
        self.environment = environment
    }

    /// The environment's status now.
    public var currentStatus: SyncEnvironmentStatus { environment.status }

    /// Whether the job's requirements and conditions still hold now.
    public var requirementsHold: Bool {
        environment.status.satisfies(requirements, conditions: conditions)
    }
}
