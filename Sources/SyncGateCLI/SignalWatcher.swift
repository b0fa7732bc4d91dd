import Dispatch
import SyncGate

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns SIGINT, SIGTERM or other signals into a stream, with dispatch signal sources.
///
/// Each watched signal is ignored first (`signal(SIG, SIG_IGN)`), so its default action no longer ends
/// the process; ``ChildProcess`` resets it to the default in commands it starts.
///
/// On Linux, dispatch reads signals through a `signalfd`, which sees only signals that are blocked: a
/// thread that does not block one would take it and, the signal being ignored, drop it. So the tool calls
/// ``blockWatchedSignals(_:)`` on the main thread before any other thread exists, and every thread
/// inherits the mask.
public final class SignalWatcher: Sendable {
    /// The signals the tool watches.
    public static let watched: [Int32] = [SIGINT, SIGTERM]

    /// Blocks `numbers` in the calling thread, and so in every thread it creates later.
    public static func blockWatchedSignals(_ numbers: [Int32] = watched) {
        var set = sigset_t()
        sigemptyset(&set)
        for number in numbers { sigaddset(&set, number) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// The signals received, in order; one consumer.
    public let signals: AsyncStream<Int32>
    private let sources: LockedState<[any DispatchSourceSignal]>

    /// Starts watching the given signals.
    public init(_ numbers: [Int32] = watched) {
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
}
