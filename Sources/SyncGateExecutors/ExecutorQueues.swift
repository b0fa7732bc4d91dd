import SyncGateCore

/// What SyncGate's executors hold: jobs ready to run, in order, and jobs that wait for a deadline.
///
/// A pure value, kept behind the executor's lock. Its mutating methods say whom to wake; the executor
/// does the waking. Generic over the job so that its rules can be tested with plain values.
package struct ExecutorQueues<Job> {
    /// A job waiting for its deadline; among equal deadlines, the one scheduled first goes first.
    private struct Timed: Comparable {
        let deadline: UInt64
        let sequence: UInt64
        let job: Job

        static func < (lhs: Timed, rhs: Timed) -> Bool {
            (lhs.deadline, lhs.sequence) < (rhs.deadline, rhs.sequence)
        }

        static func == (lhs: Timed, rhs: Timed) -> Bool {
            lhs.deadline == rhs.deadline && lhs.sequence == rhs.sequence
        }
    }

    /// Newest last; moved, reversed, into `outgoing` when that runs dry.
    private var incoming: [Job] = []
    /// Oldest last, so taking the oldest is `popLast`.
    private var outgoing: [Job] = []
    private var timers = BinaryHeap<Timed>()
    private var sequence: UInt64 = 0
    /// Worker threads waiting for a ready job.
    package private(set) var idleWorkers = 0

    /// An empty set of queues.
    package init() {}

    /// The number of jobs ready to run.
    package var readyCount: Int { incoming.count + outgoing.count }

    /// The number of jobs waiting for a deadline.
    package var timedCount: Int { timers.count }

    /// The earliest deadline, if a job waits for one.
    package var nextDeadline: UInt64? { timers.top?.deadline }

    /// Adds a job ready to run; returns whether a waiting worker should be woken for it.
    package mutating func push(_ job: Job) -> Bool {
        incoming.append(job)
        return idleWorkers > 0
    }

    /// Adds a job to run at `deadline`; returns whether it is now the earliest, so that the thread
    /// keeping time must wake up and wait for this deadline instead.
    package mutating func schedule(_ job: Job, at deadline: UInt64) -> Bool {
        let earlier = nextDeadline.map { deadline < $0 } ?? true
        timers.insert(Timed(deadline: deadline, sequence: sequence, job: job))
        sequence &+= 1
        return earlier
    }

    /// Takes the oldest ready job.
    package mutating func popReady() -> Job? {
        if outgoing.isEmpty {
            guard !incoming.isEmpty else { return nil }
            outgoing = incoming.reversed()
            incoming.removeAll(keepingCapacity: true)
        }
        return outgoing.popLast()
    }

    /// Moves every job whose deadline is at or before `now` to the ready jobs, earliest first;
    /// returns how many moved.
    package mutating func releaseDue(now: UInt64) -> Int {
        var released = 0
        while let top = timers.top, top.deadline <= now {
            timers.popTop()
            incoming.append(top.job)
            released += 1
        }
        return released
    }

    /// A worker found nothing to run and is about to wait.
    package mutating func workerWillWait() { idleWorkers += 1 }

    /// A waiting worker woke up.
    package mutating func workerDidWake() { idleWorkers -= 1 }
}
