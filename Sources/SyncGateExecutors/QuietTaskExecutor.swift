import SyncGateCore

#if os(Linux)
    @_spi(ExperimentalCustomExecutors) @_spi(ExperimentalScheduling) import _Concurrency
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #endif

    /// A global executor that makes no wake-up while it has nothing to do.
    ///
    /// A fixed set of worker threads takes jobs in the order they came (task priorities are not
    /// ordered here), and one more thread keeps time for jobs enqueued with a deadline (`Task.sleep`,
    /// `Clock.sleep`): it sleeps until the earliest deadline, or without a limit when there is none. An
    /// idle worker waits on a condition variable without a time limit. So nothing here runs periodically,
    /// unlike libdispatch's pool on Linux, whose monitor wakes once a second for the life of the process.
    package final class QuietTaskExecutor: TaskExecutor, SchedulingExecutor, @unchecked Sendable {
        private static let workCondition = 0
        private static let timeCondition = 1

        private let signal = ExecutorSignal(conditions: 2)
        /// Guarded by `signal`'s mutex.
        private var queues = ExecutorQueues<UnownedJob>()

        /// Called by the thread that keeps time as it goes to sleep, with the deadline it sleeps towards
        /// (nil: none), with the executor's lock held: by the time anyone else takes the lock, it sleeps.
        private let timeKeeperWillWait: (@Sendable (UInt64?) -> Void)?

        /// Starts `workers` worker threads and the thread that keeps time; `timeKeeperWillWait` lets tests
        /// know when that thread sleeps (it must not call the executor).
        package init(workers: Int, timeKeeperWillWait: (@Sendable (UInt64?) -> Void)? = nil) {
            precondition(workers > 0, "workers must be positive, not \(workers)")
            self.timeKeeperWillWait = timeKeeperWillWait
            for index in 0..<workers {
                start(name: "sg-pool-\(index)") { executor in executor.work() }
            }
            start(name: "sg-timer") { executor in executor.keepTime() }
        }

        /// One worker per processor that is online, and at least two, so that a job blocking its thread
        /// for a while cannot hold up every other.
        package static func defaultWorkerCount() -> Int {
            max(2, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        }

        package func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            signal.lock()
            let wake = queues.push(job)
            signal.unlock()
            if wake { signal.signal(Self.workCondition) }
        }

        package func enqueue<C: Clock>(
            _ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C
        ) {
            schedule(UnownedJob(job), after: Self.duration(delay, of: clock))
        }

        package func enqueue<C: Clock>(
            _ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C
        ) {
            schedule(UnownedJob(job), after: Self.duration(clock.now.duration(to: instant), of: clock))
        }

        /// Every clock the runtime hands an executor (continuous, suspending) measures in `Duration`.
        private static func duration<C: Clock>(_ delay: C.Duration, of clock: C) -> Duration {
            guard let delay = delay as? Duration else {
                preconditionFailure("QuietTaskExecutor: \(C.self) does not measure time in Duration")
            }
            return delay
        }

        private func schedule(_ job: UnownedJob, after delay: Duration) {
            let nanoseconds = max(0, delay.nanosecondsClamped)
            let deadline = ExecutorSignal.monotonicNow() &+ UInt64(nanoseconds)
            signal.lock()
            let earliest = queues.schedule(job, at: deadline)
            signal.unlock()
            if earliest { signal.signal(Self.timeCondition) }
        }

        private func start(name: String, _ body: @escaping @Sendable (QuietTaskExecutor) -> Void) {
            if case .failure(let error) = DedicatedThread.start(name: name, { body(self) }) {
                fatalError("QuietTaskExecutor: pthread_create failed with \(error.code)")
            }
        }

        private func work() {
            signal.lock()
            while true {
                if let job = queues.popReady() {
                    signal.unlock()
                    job.runSynchronously(on: asUnownedTaskExecutor())
                    signal.lock()
                    continue
                }
                queues.workerWillWait()
                signal.wait(Self.workCondition)
                queues.workerDidWake()
            }
        }

        private func keepTime() {
            signal.lock()
            while true {
                let released = queues.releaseDue(now: ExecutorSignal.monotonicNow())
                if released > 0 {
                    if released == 1 { signal.signal(Self.workCondition) } else { signal.broadcast(Self.workCondition) }
                }
                timeKeeperWillWait?(queues.nextDeadline)
                if let deadline = queues.nextDeadline {
                    signal.wait(Self.timeCondition, until: deadline)
                } else {
                    signal.wait(Self.timeCondition)
                }
            }
        }
    }

    extension Duration {
        /// The duration in nanoseconds, clamped to `Int64`'s range.
        var nanosecondsClamped: Int64 {
            let (seconds, attoseconds) = components
            let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
            if overflow { return seconds < 0 ? .min : .max }
            let (total, overflowAgain) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
            if overflowAgain { return seconds < 0 ? .min : .max }
            return total
        }
    }
#endif
