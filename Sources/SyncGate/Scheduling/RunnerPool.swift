/// The scheduler's idle runner tasks: long-lived tasks parked on continuations, each waiting for the
/// next attempt to run, so that starting a job costs one continuation resume instead of a task creation.
///
/// A pure value kept inside the scheduler's lock. A runner parks when the attempt it ran ends without
/// starting another and nothing asked to stop it; starting an attempt takes the runner that parked last
/// (its thread and stack are the likeliest to be warm). The pool keeps at most `capacity` runners; one
/// more parks nowhere and ends instead. Once closed (the scheduler finished), nothing parks any more and
/// every parked runner is handed `nil`, which ends it.
///
/// A runner's task is cancelled only to stop the attempt it runs; a cancelled runner never parks again,
/// so a pooled task is never a cancelled one.
struct RunnerPool<Work: Sendable> {
    /// A parked runner: its task (cancelled to stop the attempt it will run) and what resumes it.
    struct Runner {
        let task: Task<Void, Never>
        let continuation: UnsafeContinuation<Work?, Never>
    }

    /// The most runners kept parked.
    let capacity: Int
    private var idle: [Runner] = []
    /// Whether the pool was closed; nothing parks after that.
    private(set) var isClosed = false

    /// A pool keeping at most `capacity` parked runners.
    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The number of parked runners.
    var count: Int { idle.count }

    /// Parks a runner; returns false, and keeps nothing, when the pool is closed or full.
    mutating func park(_ task: Task<Void, Never>, _ continuation: UnsafeContinuation<Work?, Never>) -> Bool {
        guard !isClosed, idle.count < capacity else { return false }
        idle.append(Runner(task: task, continuation: continuation))
        return true
    }

    /// Takes the runner that parked last, if any.
    mutating func take() -> Runner? {
        idle.popLast()
    }

    /// Closes the pool; returns the runners parked until now, to be resumed with `nil` outside the lock.
    mutating func close() -> [Runner] {
        isClosed = true
        defer { idle = [] }
        return idle
    }
}
