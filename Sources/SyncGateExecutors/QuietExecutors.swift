#if os(Linux)
    @_spi(ExperimentalCustomExecutors) import _Concurrency
    import Synchronization
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #endif

    /// Runs a Linux program on executors that make no wake-up while nothing happens.
    ///
    /// On Linux, Swift's default executors are libdispatch's, and libdispatch's thread pool arms a timer
    /// that wakes one of its threads once a second, for the rest of the process's life, from the moment
    /// the first task runs. A program that waits for days (a sync agent that waits for the network, a
    /// `syncgate watch`) thus wakes the CPU 86 400 times a day for nothing. ``runMain(_:)`` installs
    /// SyncGate's own main and global executors before any task exists, so such a program sleeps until
    /// something happens: the main actor runs on the main thread, other tasks on one worker thread per
    /// processor (at least two), and sleeping tasks are woken by one thread that sleeps until the
    /// earliest deadline.
    ///
    /// Use it from a program's `main.swift`, as the first thing, instead of top-level `await`:
    ///
    /// ```swift
    /// QuietExecutors.runMain {
    ///     let environment = SyncEnvironment(monitoring: .all)
    ///     for await status in environment.statuses { print(status) }
    ///     return 0
    /// }
    /// ```
    ///
    /// What changes: task priorities do not order the queue (jobs run in the order they were enqueued);
    /// the number of worker threads is fixed, so a task that blocks its thread (a semaphore, a blocking
    /// read) holds a worker until it returns, where libdispatch's monitor would add a thread after a
    /// while (that is what its timer is for); and work that uses libdispatch directly (`DispatchQueue`,
    /// dispatch sources) still starts libdispatch's pool and its timer. Not available on Apple platforms, whose libdispatch has no such
    /// timer. It relies on the Swift runtime's custom-executor interface (`_createExecutors`), which
    /// Swift 6.3 offers as an experimental one.
    public enum QuietExecutors {
        private static let installed = Atomic<Bool>(false)

        /// Installs the executors, runs `body` on the main actor, and exits the process with the status it
        /// returns. Call it once, from the main thread, before any task has been created.
        public static func runMain(_ body: @escaping @MainActor @Sendable () async -> Int32) -> Never {
            precondition(
                !installed.exchange(true, ordering: .sequentiallyConsistent), "QuietExecutors.runMain called twice")
            _createExecutors(factory: QuietExecutorFactory.self)
            Task { @MainActor in exit(await body()) }
            do {
                try QuietExecutorFactory.main.run()
            } catch {
                fatalError("QuietExecutors: the main executor stopped: \(error)")
            }
            fatalError("QuietExecutors: the main executor stopped")
        }

        /// Whether ``runMain(_:)`` installed the executors in this process.
        public static var isInstalled: Bool { installed.load(ordering: .sequentiallyConsistent) }
    }

    /// The executors ``QuietExecutors/runMain(_:)`` installs.
    enum QuietExecutorFactory: ExecutorFactory {
        static let main = MainThreadExecutor()
        static let pool = QuietTaskExecutor(workers: QuietTaskExecutor.defaultWorkerCount())
        static var mainExecutor: any MainExecutor { main }
        static var defaultExecutor: any TaskExecutor { pool }
    }
#endif
