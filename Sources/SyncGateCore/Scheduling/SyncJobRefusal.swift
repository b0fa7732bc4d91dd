/// Why a submission was refused: the job, the field at fault and its value, the other jobs involved,
/// and a one-line reason that names them.
///
/// Carried by ``SyncSchedulerError/invalidJob(_:)``. Match on ``field`` (and ``value``,
/// ``relatedJobs``) rather than on the text of ``reason``, which is for people.
public struct SyncJobRefusal: Sendable, Hashable, CustomStringConvertible {
    /// The refused job's identifier (empty when the fault is that the identifier is empty).
    public var jobID: SyncJob.ID
    /// The field at fault, spelled as in code: `runTimeout`, `retry.maxAttempts`, `period.flex`,
    /// `dependsOn`, `onDuplicate`, `uniqueKey`, `id`.
    public var field: String
    /// The offending value as text (`0.0 seconds`, `"photos"`); `nil` when the fault is not one value
    /// (a repeated entry, an empty name among several).
    public var value: String?
    /// Other jobs the refusal is about: the unknown, periodic or ended dependencies, the job whose id or
    /// unique key is taken, the job an append would follow; empty when none is.
    public var relatedJobs: [SyncJob.ID]
    /// The one-line reason, naming the field and the value (within a batch, it starts with the job's id).
    public var reason: String

    /// Creates a refusal.
    ///
    /// - Parameters:
    ///   - jobID: the refused job's identifier.
    ///   - field: the field at fault, spelled as in code.
    ///   - value: the offending value as text, if the fault is one value.
    ///   - relatedJobs: other jobs the refusal is about.
    ///   - reason: the one-line reason.
    public init(
        jobID: SyncJob.ID, field: String, value: String? = nil, relatedJobs: [SyncJob.ID] = [], reason: String
    ) {
        self.jobID = jobID
        self.field = field
        self.value = value
        self.relatedJobs = relatedJobs
        self.reason = reason
    }

    /// The one-line ``reason``.
    public var description: String { reason }

    /// The same refusal with the job's identifier filled in (options are checked before they belong to a
    /// job).
    package func refusing(_ id: SyncJob.ID) -> SyncJobRefusal {
        var refusal = self
        refusal.jobID = id
        return refusal
    }

    /// The same refusal with its reason prefixed by the job's identifier, as a batch reports it.
    var namingTheJob: SyncJobRefusal {
        var refusal = self
        refusal.reason = "job \"\(jobID)\": \(reason)"
        return refusal
    }

    /// The identifier is that of an unfinished job.
    package static func idTaken(_ id: SyncJob.ID) -> SyncJobRefusal {
        SyncJobRefusal(
            jobID: id, field: "id", value: "\"\(id)\"", relatedJobs: [id],
            reason: "id \"\(id)\" is already used by an unfinished job")
    }

    /// A fault of the options, before the job's identifier is known.
    package static func option(_ field: String, _ value: String? = nil, _ reason: String) -> SyncJobRefusal {
        SyncJobRefusal(jobID: "", field: field, value: value, reason: reason)
    }
}
