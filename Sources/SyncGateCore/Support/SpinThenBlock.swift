import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Bionic)
    import Bionic
#elseif canImport(Darwin)
    import Darwin
#endif

/// Locks a pthread mutex that is held for short critical sections: spin for a few microseconds before
/// sleeping in the kernel.
///
/// The scheduler's critical sections last one to a few microseconds. glibc's adaptive mutex spins at most
/// 100 `pause` instructions (well under a microsecond on some processors) before it sleeps, and a sleep
/// costs the waiter a futex wait and a context switch and the holder a futex wake on unlock: several
/// microseconds each, more than the critical section. With one thread submitting jobs and another
/// finishing them, that made the waits, not the work, most of the time per job. Here a contended lock is
/// retried for up to ``budget`` before the thread sleeps; between retries the thread reads a shared
/// value (so it does not keep taking the mutex's cache line from the holder).
enum SpinThenBlock {
    /// How long a thread retries a held mutex before it sleeps.
    static let budget = Duration.microseconds(5)

    /// Locks `mutex`.
    @inline(__always)
    static func lock(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) {
        if pthread_mutex_trylock(mutex) != 0 { lockContended(mutex) }
    }

    @inline(never)
    private static func lockContended(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: budget)
        var pause = 16
        repeat {
            for _ in 0..<pause { _ = idle.load(ordering: .relaxed) }
            if pthread_mutex_trylock(mutex) == 0 { return }
            pause = min(pause * 2, 256)
        } while clock.now < deadline
        pthread_mutex_lock(mutex)
    }

    /// What a spinning thread reads between retries: never written, so it stays in every core's cache.
    private static let idle = Atomic<Int>(0)
}
