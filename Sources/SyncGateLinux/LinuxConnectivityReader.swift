import SyncGateCore

#if os(Linux)
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #endif

    /// The Linux connectivity backend: owns the reader thread and publishes into a broadcast.
    ///
    /// The reader is a dedicated thread blocked in `poll` on the event socket and a wake-up pipe, so it
    /// never occupies the cooperative thread pool and makes no wake-ups while nothing changes. The only
    /// tasks it creates are debounce timers, at most one at a time, sleeping on the injected clock.
    final class LinuxConnectivityReader: Sendable {
        /// The published status.
        let broadcast: StatusBroadcast<ConnectivityStatus>
        /// The descriptors the backend owns; all are closed when ``stop()`` returns.
        let fileDescriptors: [Int32]
        private let signal: ConnectivityReaderSignal
        private let thread: pthread_t

        /// Opens the sockets, computes the first status, and starts the reader thread.
        init(configuration: ConnectivityReaderConfiguration) throws(ConnectivityObserverError) {
            let loop = try ConnectivityReaderLoop(configuration: configuration)
            let broadcast = StatusBroadcast(loop.status)
            loop.broadcast = broadcast
            self.broadcast = broadcast
            signal = loop.signal
            fileDescriptors = loop.fileDescriptors
            // The thread names itself, then says so; this initializer returns after that, so the name
            // is there for a census made right after it.
            let named = NamedSignal()
            let context = Unmanaged.passRetained(ReaderStart(loop: loop, named: named)).toOpaque()
            var thread = pthread_t()
            let result = pthread_create(
                &thread,
                nil,
                { context in
                    guard let context else { return nil }
                    let start = Unmanaged<ReaderStart>.fromOpaque(context).takeRetainedValue()
                    DedicatedThread.nameCurrentThread("sg-netlink")
                    start.named.post()
                    start.loop.run()
                    return nil
                },
                context
            )
            guard result == 0 else {
                Unmanaged<ReaderStart>.fromOpaque(context).release()
                signal.requestStop()
                loop.closeDescriptors()
                throw ConnectivityObserverError(operation: "pthread_create", code: result)
            }
            named.wait()
            self.thread = thread
        }

        /// What the reader thread is handed: its loop, and the signal it posts once it is named.
        private final class ReaderStart {
            let loop: ConnectivityReaderLoop
            let named: NamedSignal
            init(loop: ConnectivityReaderLoop, named: NamedSignal) {
                self.loop = loop
                self.named = named
            }
        }

        /// How many evaluations and link-cache resyncs have happened.
        var counters: ConnectivityReaderCounters { signal.counters }

        /// Stops the reader thread and closes every descriptor before returning.
        ///
        /// When called on the reader thread itself (the last reference dropped inside a status observer),
        /// the thread closes the descriptors as soon as the observer returns instead.
        func stop() {
            signal.requestStop()
            if pthread_equal(pthread_self(), thread) != 0 {
                _ = pthread_detach(thread)
            } else {
                _ = pthread_join(thread, nil)
            }
        }
    }
#endif
