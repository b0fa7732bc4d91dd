#if os(Linux)
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #endif

    /// A pthread mutex with condition variables on the monotonic clock: the waiting of SyncGate's
    /// executors.
    ///
    /// Waits have either no time limit or an absolute monotonic deadline, so a thread that waits here
    /// makes no wake-up until it is signalled or its deadline comes.
    final class ExecutorSignal: @unchecked Sendable {
        private let mutex: UnsafeMutablePointer<pthread_mutex_t>
        private let conditions: UnsafeMutablePointer<pthread_cond_t>
        private let conditionCount: Int

        /// Creates the mutex and `conditions` condition variables, numbered from 0.
        init(conditions count: Int) {
            mutex = .allocate(capacity: 1)
            mutex.initialize(to: pthread_mutex_t())
            precondition(pthread_mutex_init(mutex, nil) == 0, "pthread_mutex_init failed")
            conditions = .allocate(capacity: count)
            conditionCount = count
            var attributes = pthread_condattr_t()
            pthread_condattr_init(&attributes)
            pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
            for index in 0..<count {
                (conditions + index).initialize(to: pthread_cond_t())
                precondition(pthread_cond_init(conditions + index, &attributes) == 0, "pthread_cond_init failed")
            }
            pthread_condattr_destroy(&attributes)
        }

        deinit {
            for index in 0..<conditionCount { pthread_cond_destroy(conditions + index) }
            conditions.deinitialize(count: conditionCount)
            conditions.deallocate()
            pthread_mutex_destroy(mutex)
            mutex.deinitialize(count: 1)
            mutex.deallocate()
        }

        /// Nanoseconds on `CLOCK_MONOTONIC`, the clock of the deadlines.
        static func monotonicNow() -> UInt64 {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            return UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
        }

        func lock() { pthread_mutex_lock(mutex) }

        func unlock() { pthread_mutex_unlock(mutex) }

        /// Waits on condition `index` until signalled; call with the mutex held.
        func wait(_ index: Int) {
            pthread_cond_wait(conditions + index, mutex)
        }

        /// Waits on condition `index` until signalled or until `deadline` (monotonic nanoseconds).
        func wait(_ index: Int, until deadline: UInt64) {
            var time = timespec(
                tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
            _ = pthread_cond_timedwait(conditions + index, mutex, &time)
        }

        /// Wakes one thread waiting on condition `index`.
        func signal(_ index: Int) { pthread_cond_signal(conditions + index) }

        /// Wakes every thread waiting on condition `index`.
        func broadcast(_ index: Int) { pthread_cond_broadcast(conditions + index) }
    }
#endif
