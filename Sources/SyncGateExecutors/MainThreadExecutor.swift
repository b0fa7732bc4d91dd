#if os(Linux)
    @_spi(ExperimentalCustomExecutors) import _Concurrency
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #endif

    /// The main actor's executor: a loop on the process's main thread that runs the jobs enqueued on it,
    /// in order, and waits without a time limit while there are none.
    package final class MainThreadExecutor: MainExecutor, @unchecked Sendable {
        private let signal = ExecutorSignal(conditions: 1)
        /// Guarded by `signal`'s mutex.
        private var queues = ExecutorQueues<UnownedJob>()
        /// Guarded by `signal`'s mutex.
        private var isStopped = false
        /// The thread that created the executor: the main thread, which ``run()`` must be called on.
        private let mainThread = pthread_self()

        package init() {}

        package func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            signal.lock()
            let wake = queues.push(job)
            signal.unlock()
            if wake { signal.signal(0) }
        }

        /// Runs jobs on the calling thread, which must be the main thread, until ``stop()``.
        package func run() throws {
            precondition(pthread_equal(pthread_self(), mainThread) != 0, "MainThreadExecutor.run() off the main thread")
            signal.lock()
            while !isStopped {
                if let job = queues.popReady() {
                    signal.unlock()
                    job.runSynchronously(on: asUnownedSerialExecutor())
                    signal.lock()
                    continue
                }
                queues.workerWillWait()
                signal.wait(0)
                queues.workerDidWake()
            }
            isStopped = false
            signal.unlock()
        }

        /// Makes ``run()`` return once the job it is running, if any, has returned.
        package func stop() {
            signal.lock()
            isStopped = true
            signal.unlock()
            signal.signal(0)
        }

        package func isIsolatingCurrentContext() -> Bool? {
            pthread_equal(pthread_self(), mainThread) != 0
        }

        package func checkIsolated() {
            precondition(
                pthread_equal(pthread_self(), mainThread) != 0, "expected to run on the main actor (the main thread)")
        }
    }
#endif
