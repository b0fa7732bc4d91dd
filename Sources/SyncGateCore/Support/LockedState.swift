#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Bionic)
    import Bionic
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value guarded by a pthread mutex, for state that synchronous code must reach.
///
/// Used instead of `Synchronization.Mutex` because a contended `Mutex` on Linux locks through
/// `FUTEX_LOCK_PI` syscalls that the thread sanitizer cannot see, which produces false race reports;
/// a pthread mutex is understood by the sanitizer. Never hold the lock across an `await`, and never
/// call code from inside `withLock` that may take the same lock again (for example
/// `AsyncStream.Continuation.finish()`, which runs `onTermination` synchronously). Nor yield to a stream
/// that a task may be waiting on: the yield takes the runtime's lock of that task, inside which a
/// cancellation runs handlers that may take this lock (``DeliveryQueue`` yields after the lock instead).
///
/// The value and the mutex share one allocation (a `ManagedBuffer` whose header is the value and whose
/// single element is the mutex), so a lock costs one object, not two.
package struct LockedState<State>: @unchecked Sendable {
    private let storage: Storage

    /// Creates the lock around an initial value.
    package init(_ initial: State) {
        storage = Storage.make(initial)
    }

    /// Runs `body` with exclusive access to the state and returns its result.
    @inline(__always)
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try storage.withLock(body)
    }

    private final class Storage: ManagedBuffer<State, pthread_mutex_t> {
        static func make(_ initial: State) -> Storage {
            let buffer = Storage.create(minimumCapacity: 1) { _ in initial }
            let storage = unsafeDowncast(buffer, to: Storage.self)
            storage.withUnsafeMutablePointerToElements { mutex in
                mutex.initialize(to: pthread_mutex_t())
                var attributes = pthread_mutexattr_t()
                pthread_mutexattr_init(&attributes)
                #if os(Linux)
                    // Spin briefly before sleeping in the kernel: critical sections here are a few hundred
                    // nanoseconds, far shorter than a futex sleep and wake-up.
                    pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
                #endif
                let result = pthread_mutex_init(mutex, &attributes)
                pthread_mutexattr_destroy(&attributes)
                precondition(result == 0, "pthread_mutex_init failed with \(result)")
            }
            return storage
        }

        /// Destroys the mutex; the header (the state) is a stored property and is destroyed with the object.
        deinit {
            withUnsafeMutablePointerToElements { mutex in
                pthread_mutex_destroy(mutex)
                mutex.deinitialize(count: 1)
            }
        }

        @inline(__always)
        func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
            try withUnsafeMutablePointers { state, mutex in
                SpinThenBlock.lock(mutex)
                defer { pthread_mutex_unlock(mutex) }
                return try body(&state.pointee)
            }
        }
    }
}
