/// Every mapping between the spellings of a job's life, in one place.
///
/// A job's life is spelled once per reader, and only these:
/// * ``SyncJobState``: where a job is now, as its handle shows it (waiting, delayed, running, or one of
///   the four ends); also what the handle stores, with the blockers of a waiting job read live.
/// * ``SyncJobOutcome``: how a job ended, what ``SyncJobHandle/outcome()`` returns.
/// * ``SyncSchedulerEvent``: what happened to a job, in the scheduler's order.
/// * `JobRecord.Resolution`: how a durable job left the journal; its raw values are journal bytes.
/// * `SchedulerStateMachine.Phase`: the machine's own bookkeeping (its `parked` is a job behind other
///   jobs: dependencies, its serial group, its unique key; a handle shows it as `blocked(by:)`).
///
/// Each arrow between them is a function here, tested as one table (`JobLifecycleTests`):
/// outcome → state, outcome → event, event → resolution, and the machine's phase → a handle's state.
package enum JobLifecycle {
    /// The state a handle stores for a waiting job; the handle fills in the live blockers when read.
    static let waiting = SyncJobState.waiting(unmet: [], conditions: [])

    /// The state of a parked job: blocked by `jobs`, or plain waiting when none is left (a job that is
    /// about to move on in the same critical section).
    static func blocked(by jobs: [SyncJob.ID]) -> SyncJobState {
        jobs.isEmpty ? waiting : .blocked(by: jobs)
    }

    /// The terminal state of a job that ended with `outcome`.
    static func state(of outcome: SyncJobOutcome) -> SyncJobState {
        switch outcome {
        case .succeeded: .succeeded
        case .failed(let error): .failed(error)
        case .cancelled: .cancelled
        case .expired: .expired
        }
    }

    /// The event the scheduler publishes when job `id` ends with `outcome`.
    static func event(for outcome: SyncJobOutcome, id: SyncJob.ID) -> SyncSchedulerEvent {
        switch outcome {
        case .succeeded: .succeeded(id: id)
        case .failed(let error): .failed(id: id, error: error)
        case .cancelled: .cancelled(id: id)
        case .expired: .expired(id: id)
        }
    }

    /// The state a handle shows for an unfinished job in machine phase `phase`.
    ///
    /// - Parameters:
    ///   - attempt: the attempt running now (for `.running`).
    ///   - nextAttempt: the attempt that waits out its delay (for `.delayed`).
    ///   - blockers: the jobs a parked job waits for (for `.parked`).
    static func handleState<Payload>(
        _ phase: SchedulerStateMachine<Payload>.Phase,
        attempt: Int,
        nextAttempt: Int,
        blockers: [SyncJob.ID]
    ) -> SyncJobState {
        switch phase {
        case .waiting: waiting
        case .parked: blocked(by: blockers)
        case .delayed: .delayed(attempt: nextAttempt)
        case .running: .running(attempt: attempt)
        }
    }

    /// Whether two errors are the same: the same type and equal, by the type's own `==` when it is
    /// `Equatable`, otherwise by their full text (`String(reflecting:)`), which spells out an enum case
    /// with its associated values and a struct with its fields.
    ///
    /// The one rule by which ``SyncJobOutcome``, ``SyncJobState`` and ``SyncSchedulerEvent`` compare the
    /// errors they carry.
    static func sameError(_ left: any Error, _ right: any Error) -> Bool {
        guard ObjectIdentifier(type(of: left)) == ObjectIdentifier(type(of: right)) else { return false }
        if let left = (left as Any) as? any Equatable { return left.isEqual(toAny: right) }
        return String(reflecting: left) == String(reflecting: right)
    }

    /// Hashes an error consistently with ``sameError(_:_:)``: by its type only, since equal errors
    /// always share their type.
    static func hashError(_ error: any Error, into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(type(of: error)))
    }
}

extension Equatable {
    /// Whether `other` is a value of this type equal to this one.
    fileprivate func isEqual(toAny other: Any) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }
}
