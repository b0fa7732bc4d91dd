#if os(Linux)
    import Dispatch
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #endif

    /// Tells when the machine's wall clock was set (an NTP step, a user, a resume from suspend): the
    /// "clock was set" source of ``SystemWallClock`` on Linux, which shares one watch per process
    /// (``shared``).
    ///
    /// It holds a `timerfd` on `CLOCK_REALTIME`, armed at an absolute time far ahead with
    /// `TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET`: whenever the clock is set discontinuously the
    /// kernel cancels the timer, the descriptor becomes readable and its `read` fails with `ECANCELED`.
    /// The watch then yields to every stream of ``changes()`` and arms the timer again. It makes no
    /// wake-up while nobody sets the clock. Releasing the watch closes the descriptor and finishes its
    /// streams.
    ///
    /// ```swift
    /// let watch = WallClockSetWatch()
    /// let wallClock = watch.map { watch in SystemWallClock(changes: watch.changes) } ?? SystemWallClock()
    /// ```
    public final class WallClockSetWatch: Sendable {
        /// The process's watch, started on first use and kept for the life of the process: what
        /// ``SystemWallClock/init()`` listens to. `nil` when the kernel refuses the timer.
        public static let shared: WallClockSetWatch? = WallClockSetWatch()

        /// How far ahead the timer is armed; it is armed again if it ever fires.
        static let horizonSeconds = 10 * 365 * 86_400
        /// `TFD_TIMER_ABSTIME` and `TFD_TIMER_CANCEL_ON_SET` of `<sys/timerfd.h>`, which Glibc's Swift module
        /// does not export.
        static let timerAbsoluteTime: Int32 = 1 << 0
        static let timerCancelOnSet: Int32 = 1 << 1
        /// The `settime` flags the timer is armed with.
        package static let armFlags = timerAbsoluteTime | timerCancelOnSet

        /// The `timerfd`.
        package let descriptor: Int32
        /// The open streams of ``changes()``, by a number each; a stream leaves when it ends.
        private let subscribers = LockedState(Subscribers())
        /// Behind a lock only because dispatch sources are not marked `Sendable`; they are thread-safe.
        private let source: LockedState<any DispatchSourceRead>

        /// Starts watching; `nil` when the kernel refuses the timer.
        public init?() {
            guard let functions = TimerFunctions.lookUp() else { return nil }
            // TFD_CLOEXEC and TFD_NONBLOCK are O_CLOEXEC and O_NONBLOCK.
            let descriptor = functions.create(CLOCK_REALTIME, Int32(O_CLOEXEC) | Int32(O_NONBLOCK))
            guard descriptor >= 0 else { return nil }
            guard Self.arm(descriptor) else {
                close(descriptor)
                return nil
            }
            self.descriptor = descriptor
            let queue = DispatchQueue(label: "syncgate.wall-clock")
            let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
            self.source = LockedState(source)
            let subscribers = self.subscribers
            source.setEventHandler {
                if Self.drain(descriptor) {
                    for subscriber in subscribers.withLock({ $0.open.values }) { subscriber.yield() }
                }
            }
            source.setCancelHandler {
                close(descriptor)
                for subscriber in subscribers.withLock({ $0.open.values }) { subscriber.finish() }
            }
            source.resume()
        }

        deinit {
            source.withLock { $0.cancel() }
        }

        /// The streams of ``changes()`` that have not ended: neither finished by the watch's release nor
        /// ended by their consumer (cancelled, or dropped).
        package var subscriberCount: Int { subscribers.withLock { $0.open.count } }

        /// A stream that yields each time the wall clock is set from now on; it finishes when the watch
        /// is released. A stream that ends (its consumer is cancelled or drops it) no longer holds a place
        /// in the watch, which lives as long as the process.
        @Sendable public func changes() -> AsyncStream<Void> {
            let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
            let id = subscribers.withLock { subscribers in
                subscribers.nextID += 1
                subscribers.open[subscribers.nextID] = continuation
                return subscribers.nextID
            }
            let subscribers = subscribers
            // Called after the stream ended, never under the lock: `yield` and `finish` run outside it.
            continuation.onTermination = { _ in
                _ = subscribers.withLock { $0.open.removeValue(forKey: id) }
            }
            return stream
        }

        /// The open streams, and the number the next one gets.
        private struct Subscribers {
            var open: [UInt64: AsyncStream<Void>.Continuation] = [:]
            var nextID: UInt64 = 0
        }

        /// Reads the descriptor after it became readable and arms the timer again; `true` when the read
        /// said the clock was set (`ECANCELED`).
        static func drain(_ descriptor: Int32) -> Bool {
            var expirations: UInt64 = 0
            let count = read(descriptor, &expirations, MemoryLayout<UInt64>.size)
            let wasSet = count < 0 && errno == ECANCELED
            if count >= 0 || wasSet { _ = arm(descriptor) }
            return wasSet
        }

        /// Arms the timer at an absolute time on `CLOCK_REALTIME` far ahead, cancelled when the clock is set.
        static func arm(_ descriptor: Int32) -> Bool {
            var now = timespec()
            clock_gettime(CLOCK_REALTIME, &now)
            var spec = itimerspec()
            spec.it_value.tv_sec = now.tv_sec + horizonSeconds
            guard let functions = TimerFunctions.lookUp() else { return false }
            return functions.set(descriptor, armFlags, &spec, nil) == 0
        }

        /// The current setting of the timer (`timerfd_gettime`); `nil` when it fails.
        package static func setting(of descriptor: Int32) -> itimerspec? {
            var current = itimerspec()
            guard let functions = TimerFunctions.lookUp(), functions.get(descriptor, &current) == 0 else { return nil }
            return current
        }

        /// `timerfd_create`, `timerfd_settime` and `timerfd_gettime`, looked up at run time: Glibc's Swift
        /// module does not export them.
        private struct TimerFunctions {
            typealias Create = @convention(c) (Int32, Int32) -> Int32
            typealias Set =
                @convention(c) (
                    Int32, Int32, UnsafePointer<itimerspec>, UnsafeMutablePointer<itimerspec>?
                ) -> Int32
            typealias Get = @convention(c) (Int32, UnsafeMutablePointer<itimerspec>) -> Int32

            let create: Create
            let set: Set
            let get: Get

            static func lookUp() -> TimerFunctions? {
                let everywhere = UnsafeMutableRawPointer(bitPattern: 0)
                guard let create = dlsym(everywhere, "timerfd_create"), let set = dlsym(everywhere, "timerfd_settime"),
                    let get = dlsym(everywhere, "timerfd_gettime")
                else { return nil }
                return TimerFunctions(
                    create: unsafeBitCast(create, to: Create.self), set: unsafeBitCast(set, to: Set.self),
                    get: unsafeBitCast(get, to: Get.self))
            }
        }
    }
#endif
