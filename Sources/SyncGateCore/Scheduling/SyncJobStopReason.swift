/// Why the scheduler is stopping a running attempt: what ``SyncJobContext/stopReason`` tells the job's
/// body, and what the handle, ``SyncScheduler/snapshot()``, queries and
/// ``SyncSchedulerEvent/stopRequested(id:attempt:reason:)`` show.
///
/// The scheduler records the reason before it cancels the attempt's task, so a body that sees
/// `CancellationError`, or a `withTaskCancellationHandler` handler that runs, finds it already set.
/// A later stop of a kind that ends the job (``cancelled``, ``replaced``, ``shutdown``) overrides
/// a ``timedOut`` or ``requirementsLost(_:conditions:)`` reason of the same attempt; otherwise the
/// first reason stays.
public enum SyncJobStopReason: Sendable, Hashable, CustomStringConvertible {
    /// The app cancelled the job (its handle, its id, its tag, its unique key, or every job).
    case cancelled
    /// The requirements and conditions named stopped holding, and the job's
    /// ``RequirementsLostPolicy/cancelAndRequeue`` policy stops it; it waits again for them. Both are
    /// empty when what stopped holding is the job's allowed networks (``SyncJobOptions/allowedNetworks``).
    case requirementsLost(SyncRequirements, conditions: Set<SyncCondition>)
    /// The attempt ran past the job's run timeout; the attempt counts as failed.
    case timedOut
    /// A newer job with the same unique key and the ``DuplicatePolicy/replace`` policy replaced it.
    case replaced
    /// The scheduler is shutting down: its grace period passed, or it was released.
    case shutdown

    /// The reason's stable one-word name: `cancelled`, `requirements-lost`, `timed-out`, `replaced` or
    /// `shutdown`; what the `syncgate` tool prints and writes to its JSON and to a stopped command's log.
    public var name: String {
        switch self {
        case .cancelled: "cancelled"
        case .requirementsLost: "requirements-lost"
        case .timedOut: "timed-out"
        case .replaced: "replaced"
        case .shutdown: "shutdown"
        }
    }

    /// Whether the stop ends the job as ``SyncJobOutcome/cancelled`` (cancelled, replaced, shutdown),
    /// rather than failing the attempt or requeueing the job.
    public var endsJob: Bool {
        switch self {
        case .cancelled, .replaced, .shutdown: true
        case .requirementsLost, .timedOut: false
        }
    }

    /// The name, followed for a loss by what was lost: `requirements-lost [network] conditions [db-ready]`
    /// (the conditions part only when a condition was lost); a loss of neither is the job's allowed
    /// networks (``SyncJobOptions/allowedNetworks``) no longer matching: `requirements-lost (network not
    /// allowed)`.
    public var description: String {
        guard case .requirementsLost(let requirements, let conditions) = self else { return name }
        if requirements.isEmpty && conditions.isEmpty { return "\(name) (network not allowed)" }
        var line = "\(name) \(requirements)"
        if !conditions.isEmpty {
            line += " conditions [" + conditions.map(\.name).sorted().joined(separator: ", ") + "]"
        }
        return line
    }
}
