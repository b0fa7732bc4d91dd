/// Something that happened to a job, as reported by ``SyncScheduler/events``.
///
/// Events compare with `==`; a failure carries the error, compared by the rule of
/// ``SyncJobOutcome/==(_:_:)``.
public enum SyncSchedulerEvent: Sendable, Hashable, CustomStringConvertible {
    /// The job was accepted.
    case submitted(id: SyncJob.ID)
    /// An attempt started (1 for the first).
    case started(id: SyncJob.ID, attempt: Int)
    /// The job succeeded.
    case succeeded(id: SyncJob.ID)
    /// The job failed for good with `error`, the error of its outcome.
    case failed(id: SyncJob.ID, error: any Error)
    /// An attempt failed and the job will try again after `delay`; while the scheduler shuts down, the
    /// retry is left undone and ``cancelled(id:)`` follows (a durable job retries at its next launch).
    case retryScheduled(id: SyncJob.ID, attempt: Int, delay: Duration)
    /// The job's requirements were lost while it ran; it waits again for the ones listed.
    case requeued(id: SyncJob.ID, lost: SyncRequirements)
    /// The running attempt `attempt` is being stopped for `reason`; its task is cancelled next (unless an
    /// earlier stop of the same attempt already cancelled it). How the attempt ends follows as its own
    /// event: ``cancelled(id:)`` for a reason that ends the job, ``requeued(id:lost:)`` or
    /// ``retryScheduled(id:attempt:delay:)`` / ``failed(id:error:)`` otherwise.
    case stopRequested(id: SyncJob.ID, attempt: Int, reason: SyncJobStopReason)
    /// The job was cancelled.
    case cancelled(id: SyncJob.ID)
    /// The job did not start before its start deadline.
    case expired(id: SyncJob.ID)
    /// A period of a periodic job ended: its run succeeded or failed, or its window closed before a run
    /// could start (a skip); `periods` counts the series so far. The job goes on to its next period.
    case periodEnded(id: SyncJob.ID, periods: SyncJobInfo.Periods)
    /// The job has waited long enough for `relaxation` to take effect: from now on it waits on its weaker
    /// requirements (see ``SyncJobRelaxation``), and it is judged again at once.
    case relaxed(id: SyncJob.ID, relaxation: SyncJobRelaxation)

    /// The job the event is about.
    public var jobID: SyncJob.ID {
        switch self {
        case .submitted(let id), .started(let id, _), .succeeded(let id), .failed(let id, _),
            .retryScheduled(let id, _, _), .requeued(let id, _), .stopRequested(let id, _, _), .cancelled(let id),
            .expired(let id), .periodEnded(let id, _), .relaxed(let id, _):
            id
        }
    }

    /// Whether the event is a job's failure, with any error.
    public var isFailed: Bool {
        if case .failed = self { return true }
        return false
    }

    /// A one-line summary such as `started upload-1 (attempt 2)`.
    public var description: String {
        switch self {
        case .submitted(let id): "submitted \(id)"
        case .started(let id, let attempt): "started \(id) (attempt \(attempt))"
        case .succeeded(let id): "succeeded \(id)"
        case .failed(let id, let error): "failed \(id): \(error)"
        case .retryScheduled(let id, let attempt, let delay): "retry \(id) as attempt \(attempt) in \(delay)"
        case .requeued(let id, let lost): "requeued \(id), lost \(lost)"
        case .stopRequested(let id, let attempt, let reason): "stopping \(id) (attempt \(attempt)): \(reason)"
        case .cancelled(let id): "cancelled \(id)"
        case .expired(let id): "expired \(id)"
        case .periodEnded(let id, let periods):
            "period ended \(id) (\(periods.succeeded) succeeded, \(periods.failed) failed, \(periods.skipped) skipped)"
        case .relaxed(let id, let relaxation): "relaxed \(id): \(relaxation.change)"
        }
    }

    /// Whether two events are the same case with the same values; failures compare their errors by the
    /// rule of ``SyncJobOutcome/==(_:_:)``.
    public static func == (lhs: SyncSchedulerEvent, rhs: SyncSchedulerEvent) -> Bool {
        switch (lhs, rhs) {
        case (.submitted(let left), .submitted(let right)), (.succeeded(let left), .succeeded(let right)),
            (.cancelled(let left), .cancelled(let right)), (.expired(let left), .expired(let right)):
            left == right
        case (.started(let lid, let la), .started(let rid, let ra)): lid == rid && la == ra
        case (.failed(let lid, let le), .failed(let rid, let re)): lid == rid && JobLifecycle.sameError(le, re)
        case (.retryScheduled(let lid, let la, let ld), .retryScheduled(let rid, let ra, let rd)):
            lid == rid && la == ra && ld == rd
        case (.requeued(let lid, let ll), .requeued(let rid, let rl)): lid == rid && ll == rl
        case (.stopRequested(let lid, let la, let lr), .stopRequested(let rid, let ra, let rr)):
            lid == rid && la == ra && lr == rr
        case (.periodEnded(let lid, let lp), .periodEnded(let rid, let rp)): lid == rid && lp == rp
        case (.relaxed(let lid, let lr), .relaxed(let rid, let rr)): lid == rid && lr == rr
        default: false
        }
    }

    /// Hashes the case and its values; a failure hashes its error's type.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .submitted(let id):
            hasher.combine(0)
            hasher.combine(id)
        case .started(let id, let attempt):
            hasher.combine(1)
            hasher.combine(id)
            hasher.combine(attempt)
        case .succeeded(let id):
            hasher.combine(2)
            hasher.combine(id)
        case .failed(let id, let error):
            hasher.combine(3)
            hasher.combine(id)
            JobLifecycle.hashError(error, into: &hasher)
        case .retryScheduled(let id, let attempt, let delay):
            hasher.combine(4)
            hasher.combine(id)
            hasher.combine(attempt)
            hasher.combine(delay)
        case .requeued(let id, let lost):
            hasher.combine(5)
            hasher.combine(id)
            hasher.combine(lost)
        case .cancelled(let id):
            hasher.combine(6)
            hasher.combine(id)
        case .expired(let id):
            hasher.combine(7)
            hasher.combine(id)
        case .periodEnded(let id, let periods):
            hasher.combine(8)
            hasher.combine(id)
            hasher.combine(periods)
        case .stopRequested(let id, let attempt, let reason):
            hasher.combine(9)
            hasher.combine(id)
            hasher.combine(attempt)
            hasher.combine(reason)
        case .relaxed(let id, let relaxation):
            hasher.combine(10)
            hasher.combine(id)
            hasher.combine(relaxation)
        }
    }
}
