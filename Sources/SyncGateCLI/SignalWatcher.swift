import SyncGate

#if !os(Linux)
    import Dispatch
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns SIGINT, SIGTERM or other signals into a stream: on Linux read from a `signalfd` by a thread of
/// its own, elsewhere with dispatch signal sources.
///
/// Each watched signal is ignored first (`signal(SIG, SIG_IGN)`), so its default action no longer ends
/// the process; ``ChildProcess`` resets it to the default in commands it starts.
///
/// On Linux, signals are read through a `signalfd`, which sees only signals that are blocked: a
/// thread that does not block one would take it and, the signal being ignored, drop it. So the tool calls
/// ``blockWatchedSignals(_:)`` on the main thread before any other thread exists, and every thread
/// inherits the mask.
package final class SignalWatcher: Sendable {
    /// The signals the tool watches: SIGINT, SIGTERM, and SIGHUP (a terminal or session that closed),
    /// each handled as a request to stop (``RunCommand`` forwards them to its command).
    package static let watched: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// Blocks `numbers` in the calling thread, and so in every thread it creates later.
    package static func blockWatchedSignals(_ numbers: [Int32] = watched) {
        var set = sigset_t()
        sigemptyset(&set)
        for number in numbers { sigaddset(&set, number) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Why signals cannot be watched: what could not be made (`socketpair`, `signalfd`, the thread) and
    /// the system's error, such as too many open files.
    package struct StartError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What could not be made.
        package var what: String
        /// The `errno` (or `pthread_create`'s result).
        package var code: Int32

        /// `cannot watch signals: signalfd failed: Too many open files (errno 24)`.
        package var description: String {
            "cannot watch signals: \(what) failed: \(SystemErrorText.message(code))"
        }
    }

    /// The process's watcher of ``watched``, created on first use and never stopped: the one command
    /// of a `syncgate` process reads it, and ends by exiting the process, which ends its thread.
    package static let process = make()

    /// A new watcher of `numbers`, or why none could be started.
    package static func make(_ numbers: [Int32] = watched) -> Result<SignalWatcher, StartError> {
        Result { () throws(StartError) in try SignalWatcher(numbers) }
    }

    /// The watcher of `result`; when it could not be started, `nil` after its one-line error on stderr
    /// (the command then exits 1).
    package static func reporting(_ result: Result<SignalWatcher, StartError>) -> SignalWatcher? {
        switch result {
        case .success(let watcher): return watcher
        case .failure(let error):
            Output.error(error.description)
            return nil
        }
    }

    /// The signals received, in order; one consumer.
    package let signals: AsyncStream<Int32>

    #if os(Linux)
        /// The write end of the socket pair that tells the reading thread to stop.
        private let stopDescriptor: Int32
        private let thread: pthread_t

        /// Starts watching the given signals.
        ///
        /// A thread of its own reads them from a `signalfd` and sleeps in `poll` between them, so the
        /// watcher makes no wake-up while no signal comes (a dispatch source would start libdispatch's
        /// thread pool, whose monitor timer wakes once a second).
        ///
        /// - Throws: ``StartError`` when the `signalfd`, the socket pair or the thread cannot be made (out
        ///   of descriptors, say); the signals are then back to their default actions.
        package init(_ numbers: [Int32] = watched) throws(StartError) {
            let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
            signals = stream
            var mask = sigset_t()
            sigemptyset(&mask)
            for number in numbers {
                signal(number, SIG_IGN)
                sigaddset(&mask, number)
            }
            func fail(_ what: String, _ code: Int32, closing descriptors: [Int32]) -> StartError {
                for descriptor in descriptors { close(descriptor) }
                for number in numbers { signal(number, SIG_DFL) }
                return StartError(what: what, code: code)
            }
            let signalDescriptor = try Self.openSignalDescriptor(&mask)
            guard signalDescriptor >= 0 else { throw fail("signalfd", errno, closing: []) }
            var pair: [Int32] = [-1, -1]
            let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
            guard socketpair(AF_UNIX, type, 0, &pair) == 0 else {
                throw fail("socketpair", errno, closing: [signalDescriptor])
            }
            stopDescriptor = pair[1]
            let stopRead = pair[0]
            let started = DedicatedThread.start(name: "sg-signals") {
                Self.read(signalDescriptor, until: stopRead, into: continuation)
                close(signalDescriptor)
                close(stopRead)
                continuation.finish()
            }
            switch started {
            case .success(let thread): self.thread = thread
            case .failure(let error):
                throw fail("pthread_create", error.code, closing: [signalDescriptor, stopRead, stopDescriptor])
            }
        }

        deinit {
            var byte: UInt8 = 1
            _ = write(stopDescriptor, &byte, 1)
            if pthread_equal(pthread_self(), thread) != 0 {
                pthread_detach(thread)
            } else {
                pthread_join(thread, nil)
            }
            close(stopDescriptor)
        }

        /// Reads signal numbers from `descriptor` until `stop` becomes readable.
        private static func read(
            _ descriptor: Int32, until stop: Int32, into continuation: AsyncStream<Int32>.Continuation
        ) {
            var descriptors = [
                pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: stop, events: Int16(POLLIN), revents: 0),
            ]
            // struct signalfd_siginfo: 128 bytes, the signal's number first (a UInt32).
            var information = [UInt8](repeating: 0, count: 128)
            while true {
                guard poll(&descriptors, 2, -1) >= 0 else {
                    if errno == EINTR { continue }
                    return
                }
                if descriptors[1].revents != 0 { return }
                guard descriptors[0].revents != 0 else { continue }
                let count = information.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
                guard count == information.count else {
                    if count < 0 && errno == EINTR { continue }
                    return
                }
                let number = information.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
                continuation.yield(Int32(number))
            }
        }

        /// `signalfd(-1, mask, SFD_CLOEXEC)`, looked up at run time: Glibc's Swift module does not export it;
        /// -1 with `errno` set when it fails.
        private static func openSignalDescriptor(_ mask: inout sigset_t) throws(StartError) -> Int32 {
            typealias SignalFD = @convention(c) (Int32, UnsafePointer<sigset_t>, Int32) -> Int32
            guard let function = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "signalfd") else {
                throw StartError(what: "signalfd (not in this C library)", code: ENOSYS)
            }
            let signalFD = unsafeBitCast(function, to: SignalFD.self)
            return signalFD(-1, &mask, Int32(O_CLOEXEC))
        }
    #else
        private let sources: LockedState<[any DispatchSourceSignal]>

        /// Starts watching the given signals; dispatch signal sources cannot fail to start.
        package init(_ numbers: [Int32] = watched) throws(StartError) {
            let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
            signals = stream
            var sources: [any DispatchSourceSignal] = []
            let queue = DispatchQueue(label: "syncgate.signals")
            for number in numbers {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
                source.setEventHandler { continuation.yield(number) }
                source.resume()
                sources.append(source)
            }
            self.sources = LockedState(sources)
        }

        deinit {
            for source in sources.withLock({ $0 }) { source.cancel() }
        }
    #endif
}
