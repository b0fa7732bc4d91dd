/// A part of the device's state observed from the operating system through a platform backend,
/// multicast to any number of readers.
///
/// The one implementation behind ``ConnectivityObserver`` and ``PowerObserver``, which are its
/// instances for their part; their initializers pick the platform backend. The backend publishes into
/// the observer's broadcast: ``status`` is current from the first read, and a ``StatusObserver`` is a
/// ``PartObserving`` source that ``SyncEnvironment`` follows synchronously. Releasing the observer stops
/// its backend (threads, sockets, timers, bus connections) and finishes its streams; a stream obtained
/// from ``statusStream`` keeps the observer alive while it is being consumed.
public final class StatusObserver<Status: Sendable & Equatable, Provenance: Sendable>: PartObserving,
    BroadcastBacked
{
    /// The broadcast that holds the status.
    package let broadcast: StatusBroadcast<Status>

    /// The platform backend: the only part that talks to the operating system.
    package let backend: any PlatformBackend<Status, Provenance>

    /// Creates an observer on `backend`; the platform's public initializers build it.
    package init(backend: some PlatformBackend<Status, Provenance>) {
        self.backend = backend
        broadcast = backend.broadcast
    }

    deinit {
        backend.stop()
        broadcast.finish()
    }

    /// Which source decided each field of ``status``, with notes on sources that are missing and on
    /// problems met with them.
    public var provenance: Provenance { backend.provenance }

    /// The current status. Thread-safe; never blocks for longer than a short critical section.
    public var status: Status { broadcast.value }

    /// A new multicast stream: the current status first, then every change.
    public var statusStream: AsyncStream<Status> { broadcast.stream(retaining: self) }

    /// The backend with its platform type, for the platform's own extensions of the observer.
    ///
    /// Every initializer of an observer for `Status` builds it on that platform's one backend type, so
    /// asking for another type is a programming error.
    package func backend<Backend: PlatformBackend<Status, Provenance>>(as type: Backend.Type) -> Backend {
        guard let backend = backend as? Backend else {
            preconditionFailure("\(Self.self) is built on \(Swift.type(of: backend)), not \(type)")
        }
        return backend
    }
}
