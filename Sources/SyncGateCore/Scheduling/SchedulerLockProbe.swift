#if DEBUG
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// Debug builds only: whether the current thread is inside a scheduler's critical section, so tests
    /// can check that no job store (nor any other component) is called under the scheduler's lock.
    package enum SchedulerLockProbe {
        private static let key: pthread_key_t = {
            var key = pthread_key_t()
            let result = pthread_key_create(&key, nil)
            precondition(result == 0, "pthread_key_create failed with \(result)")
            return key
        }()

        /// Whether the current thread holds a scheduler's lock.
        package static var isHeld: Bool { pthread_getspecific(key) != nil }

        /// Marks the current thread as holding the lock; returns the mark to restore on leaving.
        static func enter() -> UnsafeMutableRawPointer? {
            let outer = pthread_getspecific(key)
            pthread_setspecific(key, UnsafeRawPointer(bitPattern: 1))
            return outer
        }

        /// Restores the mark that ``enter()`` returned.
        static func leave(_ outer: UnsafeMutableRawPointer?) {
            pthread_setspecific(key, outer)
        }
    }
#endif
