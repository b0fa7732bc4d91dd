#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Bionic)
    import Bionic
#elseif canImport(Darwin)
    import Darwin
#endif

/// A fixed pool of pthread mutexes shared by many small objects, each guarded by the mutex its address
/// maps to, so an object that is created by the million (a job's handle) carries no mutex of its own.
///
/// The rules of ``LockedState`` apply, plus one: two objects may share a mutex, so code holding one
/// object's lock must never take another object's lock of the same pool (nor wait for a thread that
/// might). Critical sections must be short, since unrelated objects contend on a shared mutex. Each
/// mutex sits on its own cache line, so neighbouring stripes do not share one.
package struct StripedLocks: @unchecked Sendable {
    /// The pool that job handles use.
    package static let shared = StripedLocks(count: 256)

    /// A mutex padded to a cache line.
    private struct Stripe {
        var mutex = pthread_mutex_t()
        var padding: (UInt64, UInt64, UInt64) = (0, 0, 0)
    }

    private let stripes: UnsafeMutablePointer<Stripe>
    private let mask: UInt

    /// Creates a pool of `count` mutexes, a power of two; it lives as long as the process.
    private init(count: Int) {
        precondition(count > 0 && count & (count - 1) == 0, "count must be a power of two, got \(count)")
        let alignment = max(64, MemoryLayout<Stripe>.alignment)
        let raw = UnsafeMutableRawPointer.allocate(byteCount: count * MemoryLayout<Stripe>.stride, alignment: alignment)
        stripes = raw.bindMemory(to: Stripe.self, capacity: count)
        mask = UInt(count - 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        #if os(Linux)
            pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
        #endif
        for index in 0..<count {
            (stripes + index).initialize(to: Stripe())
            let result = pthread_mutex_init(Self.mutex(stripes + index), &attributes)
            precondition(result == 0, "pthread_mutex_init failed with \(result)")
        }
        pthread_mutexattr_destroy(&attributes)
    }

    /// Runs `body` holding the mutex that `object` maps to.
    @inline(__always)
    package func withLock<Result>(for object: AnyObject, _ body: () throws -> Result) rethrows -> Result {
        // Objects are at least 16-byte aligned: drop the low bits, then mix so that neighbours spread.
        let address = UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque())
        let index = Int(truncatingIfNeeded: ((address >> 4) &* 0x9E37_79B9_7F4A_7C15) >> 40) & Int(mask)
        let mutex = Self.mutex(stripes + index)
        SpinThenBlock.lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// The mutex of a stripe: its first field.
    @inline(__always)
    private static func mutex(_ stripe: UnsafeMutablePointer<Stripe>) -> UnsafeMutablePointer<pthread_mutex_t> {
        UnsafeMutableRawPointer(stripe).assumingMemoryBound(to: pthread_mutex_t.self)
    }
}
