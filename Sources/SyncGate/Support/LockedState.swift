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
/// `AsyncStream.Continuation.finish()`, which runs `onTermination` synchronously).
package final class LockedState<State>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var state: State

    /// Creates the lock around an initial value.
    package init(_ initial: State) {
        state = initial
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
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

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the state and returns its result.
    @inline(__always)
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }
}
