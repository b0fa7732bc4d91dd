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
    /// The requirements the attempt was started on: the job's ``requirements`` after the relaxations in
    /// effect (``relaxations``). They all held in ``startStatus``; a requirement relaxed away did not have
    /// to, so a body can, for instance, upload less when `unmetered` is not among them.
    public let appliedRequirements: SyncRequirements
    /// The conditions the attempt was started on: the job's ``conditions`` less those relaxed.
    public let appliedConditions: Set<SyncCondition>
    /// The relaxations in effect when the attempt started, in the order of the job's options; empty when
    /// the attempt started on the job's full requirements.
    public let relaxations: [SyncJobRelaxation]
    /// The outputs of the jobs this one depends on that set one (``setOutput(_:)``), by their
    /// identifiers, in the order of its `dependsOn` (the job it was appended to last).
    public private(set) var inputs: [(id: SyncJob.ID, value: any Sendable)]
    package let environment: SyncEnvironment
    package let handle: SyncJobHandle?

    package init(
        jobID: SyncJob.ID,
        attempt: Int,
        startStatus: SyncEnvironmentStatus,
        requirements: SyncRequirements,
        conditions: Set<SyncCondition>,
        appliedRequirements: SyncRequirements? = nil,
        appliedConditions: Set<SyncCondition>? = nil,
        relaxations: [SyncJobRelaxation] = [],
        environment: SyncEnvironment,
        inputs: [(id: SyncJob.ID, value: any Sendable)] = [],
        handle: SyncJobHandle? = nil
    ) {
        self.jobID = jobID
        self.attempt = attempt
        self.startStatus = startStatus
        self.requirements = requirements
        self.conditions = conditions
        self.appliedRequirements = appliedRequirements ?? requirements
        self.appliedConditions = appliedConditions ?? conditions
        self.relaxations = relaxations
        self.environment = environment
        self.inputs = inputs
        self.handle = handle
    }

    /// The same context with `inputs` in place of its inputs; every other field is kept.
    package func replacingInputs(_ inputs: [(id: SyncJob.ID, value: any Sendable)]) -> SyncJobContext {
        var context = self
        context.inputs = inputs
        return context
    }

    /// Why the scheduler is stopping this attempt; `nil` until a stop is requested.
    ///
    /// Set before the attempt's task is cancelled, so a body that catches `CancellationError`, or the
    /// handler of `withTaskCancellationHandler`, can read it: one short lock, no allocation, no call into
    /// the scheduler. A reason that ends the job (``SyncJobStopReason/endsJob``) may replace an earlier
    /// timeout or loss of requirements while the body is still returning.
    ///
    /// ```swift
    /// let job = SyncJob(id: "upload", requires: [.network]) { context in
    ///     try await withTaskCancellationHandler {
    ///         try await upload()
    ///     } onCancel: {
    ///         print("upload stopped: \(context.stopReason?.description ?? "unknown")")
    ///     }
    /// }
    /// ```
    public var stopReason: SyncJobStopReason? { handle?.stopReason }

    /// The environment's status now.
    public var currentStatus: SyncEnvironmentStatus { environment.status }

    /// Whether the requirements and conditions the attempt was started on (``appliedRequirements``,
    /// ``appliedConditions``) still hold now.
    public var requirementsHold: Bool {
        environment.status.satisfies(appliedRequirements, conditions: appliedConditions)
    }

    /// The input from dependency `id` as a `T`, or `nil` when it set none or one of another type.
    public func input<T: Sendable>(_ type: T.Type = T.self, from id: SyncJob.ID) -> T? {
        inputs.first { $0.id == id }?.value as? T
    }

    /// The first input that is a `T`, or `nil`; for a job with one dependency.
    public func input<T: Sendable>(_ type: T.Type = T.self) -> T? {
        inputs.lazy.compactMap { $0.value as? T }.first
    }

    /// Sets the output the job's dependents read from their ``inputs`` once it succeeds; a later call
    /// replaces it. An output set by an attempt that then fails is replaced or dropped by the next one.
    public func setOutput(_ value: any Sendable) {
        handle?.setOutput(value)
    }

    /// Reports how far the attempt has come; its handle streams it (``SyncJobHandle/progressUpdates``)
    /// and ``SyncScheduler/snapshot()`` shows the latest.
    ///
    /// Cheap enough to call per item of a large upload: one short lock and a store, plus a yield to
    /// each stream that is open.
    ///
    /// - Parameters:
    ///   - fraction: the fraction done, clamped to `0...1` (NaN counts as 0).
    ///   - message: a short message for display.
    public func reportProgress(_ fraction: Double, message: String? = nil) {
        handle?.setProgress(SyncJobProgress(fraction: fraction, message: message))
    }
}
