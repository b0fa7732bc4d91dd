import SyncGateCore

#if os(Linux)
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #endif

    /// The thread-safe mailbox between the reader's thread and everyone else.
    ///
    /// Timer tasks report fired generations and the owner requests a stop; each writes one byte to a
    /// pipe so the reader thread, blocked in `poll`, wakes up. The write end is closed (under the lock)
    /// when a stop is requested, so a late timer can never write to a reused descriptor.
    final class ConnectivityReaderSignal: Sendable {
        private struct State {
            var writeDescriptor: Int32?
            var isStopRequested = false
            var firedGenerations: [UInt64] = []
            var timer: Task<Void, Never>?
            var evaluations = 0
            var staleLookups = 0
            var earlyGains = 0
            var resyncs = 0
        }

        /// What the reader thread must handle after waking up.
        struct Mail {
            /// Whether the owner asked the thread to stop.
            var isStopRequested: Bool
            /// The generations of the timers that fired since the last take.
            var firedGenerations: [UInt64]
        }

        /// The pipe's read end, polled and finally closed by the reader thread.
        let readDescriptor: Int32
        private let state: LockedState<State>

        /// Creates the pipe (a socket pair, close-on-exec).
        init() throws(ConnectivityObserverError) {
            var descriptors: [Int32] = [-1, -1]
            // A socket pair rather than pipe(2): it is close-on-exec from the start (Glibc's module does
            // not offer pipe2), so a process the app spawns meanwhile cannot inherit it.
            let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
            guard socketpair(AF_UNIX, type, 0, &descriptors) == 0 else {
                throw ConnectivityObserverError(operation: "socketpair", code: errno)
            }
            readDescriptor = descriptors[0]
            state = LockedState(State(writeDescriptor: descriptors[1]))
        }

        /// Reports that the timer of `generation` fired.
        func timerFired(generation: UInt64) {
            state.withLock { state in
                guard !state.isStopRequested else { return }
                state.firedGenerations.append(generation)
                state.timer = nil
                Self.poke(state.writeDescriptor)
            }
        }

        /// Keeps the armed timer's task so a stop can cancel it; cancels it at once after a stop.
        func setTimer(_ task: Task<Void, Never>) {
            let cancelNow = state.withLock { state in
                guard !state.isStopRequested else { return true }
                state.timer = task
                return false
            }
            if cancelNow { task.cancel() }
        }

        /// Asks the reader thread to stop, cancels the armed timer, and closes the pipe's write end.
        func requestStop() {
            let timer = state.withLock { state in
                state.isStopRequested = true
                Self.poke(state.writeDescriptor)
                if let descriptor = state.writeDescriptor {
                    _ = close(descriptor)
                }
                state.writeDescriptor = nil
                defer { state.timer = nil }
                return state.timer
            }
            timer?.cancel()
        }

        /// Drains the pipe and takes the pending mail (reader thread only).
        func take() -> Mail {
            var scratch = [UInt8](repeating: 0, count: 64)
            while scratch.withUnsafeMutableBytes({ read(readDescriptor, $0.baseAddress, $0.count) }) > 0 {}
            return state.withLock { state in
                defer { state.firedGenerations = [] }
                return Mail(isStopRequested: state.isStopRequested, firedGenerations: state.firedGenerations)
            }
        }

        /// The pipe's write end, until a stop closes it.
        var writeDescriptor: Int32? { state.withLock { $0.writeDescriptor } }

        /// Whether a stop was requested.
        var isStopRequested: Bool { state.withLock { $0.isStopRequested } }

        /// Counts one evaluation, and one resync when `resynced`.
        func count(resynced: Bool) {
            state.withLock { state in
                state.evaluations += 1
                if resynced { state.resyncs += 1 }
            }
        }

        /// Counts one evaluation whose lookups still answered with a route announced as removed.
        func countStaleLookup() {
            state.withLock { $0.staleLookups += 1 }
        }

        /// Counts one status published from a route's announcement, before the lookups.
        func countEarlyGain() {
            state.withLock { $0.earlyGains += 1 }
        }

        /// How many evaluations and link-cache resyncs the reader has made so far, how many evaluations
        /// found a route the kernel had announced as removed (and were made again), and how many statuses
        /// it published from an announcement.
        var counters: ConnectivityReaderCounters {
            state.withLock {
                ConnectivityReaderCounters(
                    evaluations: $0.evaluations, resyncs: $0.resyncs, staleLookups: $0.staleLookups,
                    earlyGains: $0.earlyGains)
            }
        }

        private static func poke(_ descriptor: Int32?) {
            guard let descriptor else { return }
            var byte: UInt8 = 1
            _ = write(descriptor, &byte, 1)
        }
    }
#endif
