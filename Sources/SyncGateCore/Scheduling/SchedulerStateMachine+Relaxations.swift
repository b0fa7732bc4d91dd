/// Relaxations: a job's requirements or conditions dropped or replaced once it has waited long enough
/// (``SyncJobRelaxation``, docs/ARCHITECTURE.md §4).
///
/// A job with relaxations has a ``Relaxation``: when its current wait began, which relaxations are in
/// effect, and its `relax` timer, armed for the earliest one still pending. The wait begins at submission
/// (or earlier, for a restored durable job) and, for a periodic job, anew when each period's window opens,
/// with none in effect. A relaxation takes effect when its timer fires while the job is not running, or
/// when the job enters waiting after its instant (a timer that fires during an attempt changes nothing for
/// it); a waiting job then leaves its bucket and waits again under its weaker requirements, so the
/// dispatch that follows may start it at the relax instant.
extension SchedulerStateMachine {
    /// Where a job's relaxations stand.
    struct Relaxation {
        /// When the current wait began.
        var waitStart: Duration
        /// The relaxations in effect, one bit per index of the job's `relaxations`.
        var applied: UInt64 = 0
        /// The id of the live relax timer; 0 when none is armed.
        var timer: UInt64 = 0
        /// The job's requirements after the relaxations in effect.
        var requirements: SyncRequirements
        /// The job's conditions less those relaxed.
        var conditions: Set<SyncCondition>
        /// The interned mask of ``conditions``, with the bit of the job's network allowlist (never relaxed).
        var conditionMask: ConditionMask
    }

    /// Begins a wait of a job with relaxations at `start`, with none in effect, puts into effect at once
    /// those due by `now` (a wait that began in the past: a restored job, a calendar job's catch-up or
    /// randomized delay), and arms its timer for the next one, never for an instant already past; nothing
    /// for a job without relaxations. The job must not be in a bucket.
    mutating func beginRelaxationWait(_ job: Job, at start: Duration, now: Duration, actions: inout [Action]) {
        let relaxations = job.spec.relaxations
        guard !relaxations.isEmpty else { return }
        if job.relaxation?.applied ?? 0 != 0 { actions.append(.setWaitingFor(job)) }
        job.relaxation = Relaxation(
            waitStart: start, requirements: job.spec.requirements, conditions: job.spec.conditions,
            conditionMask: job.conditionMask)
        applyDueRelaxations(job, now: now, actions: &actions)
    }

    /// Puts into effect every pending relaxation of the job whose instant has come, reporting each, and
    /// arms the timer for the next one. The job must not be in a bucket.
    mutating func applyDueRelaxations(_ job: Job, now: Duration, actions: inout [Action]) {
        guard var relaxation = job.relaxation else { return }
        let relaxations = job.spec.relaxations
        var changed = false
        for (index, candidate) in relaxations.enumerated()
        where relaxation.applied & (1 << index) == 0 && relaxation.waitStart + candidate.after <= now {
            relaxation.applied |= 1 << index
            changed = true
            actions.append(.emit(.relaxed(id: job.spec.id, relaxation: candidate), job))
        }
        if changed {
            var requirements = job.spec.requirements
            var conditions = job.spec.conditions
            for (index, applied) in relaxations.enumerated() where relaxation.applied & (1 << index) != 0 {
                switch applied.relaxed {
                case .requirement(let requirement):
                    requirements.remove(requirement)
                    requirements.formUnion(applied.replacement)
                case .condition(let condition):
                    conditions.remove(condition)
                    requirements.formUnion(applied.replacement)
                }
            }
            relaxation.requirements = requirements
            relaxation.conditions = conditions
            relaxation.conditionMask = interner.mask(of: conditions, allowlist: job.spec.allowedNetworks)
        }
        job.relaxation = relaxation
        if changed { actions.append(.setWaitingFor(job)) }
        if changed || relaxation.timer == 0 { armRelaxationTimer(job) }
    }

    /// A job's relax timer fired: a job that is not running takes the relaxations now due (a waiting one
    /// leaves its bucket and enters it again under its new requirements); a running one keeps its
    /// attempt's requirements, and takes them when it waits again.
    mutating func relaxationTimerFired(_ key: Key, now: Duration, actions: inout [Action]) {
        guard let job = jobs[key] else { return }
        job.relaxation?.timer = 0
        switch job.phase {
        case .running: return
        case .waiting:
            leaveBucket(job)
            enterWaiting(key, now: now, startIfPossible: false, actions: &actions)
        case .delayed, .parked:
            applyDueRelaxations(job, now: now, actions: &actions)
        }
    }

    /// Arms the job's relax timer for its earliest pending relaxation, or leaves none armed.
    private mutating func armRelaxationTimer(_ job: Job) {
        guard let relaxation = job.relaxation else { return }
        let pending = job.spec.relaxations.enumerated().filter { relaxation.applied & (1 << $0.offset) == 0 }
        guard let next = pending.map({ relaxation.waitStart + $0.element.after }).min() else {
            job.relaxation?.timer = 0
            return
        }
        job.relaxation?.timer = addTimer(at: next, key: job.key, kind: .relax)
    }

    /// The job's relaxations as they stand at `now`.
    func relaxationStatuses(of job: Job, now: Duration) -> [SyncJobRelaxation.Status] {
        guard let relaxation = job.relaxation else { return [] }
        return job.spec.relaxations.enumerated().map { index, candidate in
            let relaxesAt = relaxation.waitStart + candidate.after
            let applied = relaxation.applied & (1 << index) != 0
            return SyncJobRelaxation.Status(
                relaxation: candidate, relaxesAt: relaxesAt, isApplied: applied,
                remaining: applied ? .zero : max(.zero, relaxesAt - now))
        }
    }

    /// The relaxations in effect for the job, in the order of its options.
    func appliedRelaxations(of job: Job) -> [SyncJobRelaxation] {
        guard let relaxation = job.relaxation else { return [] }
        return job.spec.relaxations.enumerated().filter { relaxation.applied & (1 << $0.offset) != 0 }.map(\.element)
    }
}
