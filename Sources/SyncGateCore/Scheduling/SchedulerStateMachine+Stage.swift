extension SchedulerStateMachine {
    /// A job's ``Phase`` together with the facts that hold only during it.
    ///
    /// Entering a phase sets its facts afresh, and leaving it drops them, so none is reset by hand and
    /// none can outlive its phase: a new attempt starts with no stop requested and its run timeout not
    /// passed, a new delay with no loss of requirements seen.
    enum Stage {
        /// In a bucket, waiting for requirements or a slot.
        case waiting
        /// Waiting out a delay or backoff. `lossSeen`: the requirements stopped holding since it began,
        /// so a backoff that resets ends when they hold again.
        case delayed(lossSeen: Bool)
        /// An attempt is running.
        case running(RunningAttempt)
        /// Behind the head of its serial group, or behind the running job it replaces.
        case parked

        /// The phase, without its facts.
        var phase: Phase {
            switch self {
            case .waiting: .waiting
            case .delayed: .delayed
            case .running: .running
            case .parked: .parked
            }
        }
    }

    /// What the machine knows of a running attempt beyond its number.
    struct RunningAttempt {
        /// Why the attempt is being stopped; `nil` while nothing asked it to stop.
        var stop: SyncJobStopReason?
        /// Whether the attempt's run timeout has passed.
        var isPastRunTimeout = false
    }
}
