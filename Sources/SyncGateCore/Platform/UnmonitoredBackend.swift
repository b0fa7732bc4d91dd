/// The backend of a platform SyncGate has no source for: a fixed status that never changes.
package final class UnmonitoredBackend<Status: Sendable & Equatable, Provenance: Sendable>: PlatformBackend {
    /// The broadcast that holds the fixed status.
    package let broadcast: StatusBroadcast<Status>
    /// The provenance of the fixed status (normally `.none`: every field holds its default).
    package let provenance: Provenance

    /// Creates a backend that publishes `status` and never changes it.
    package init(status: Status, provenance: Provenance) {
        broadcast = StatusBroadcast(status)
        self.provenance = provenance
    }

    /// Nothing to stop.
    package func stop() {}
}

#if !os(Linux) && !canImport(Network)
    extension ConnectivityObserver {
        /// Creates an observer; this platform has no backend yet, so it always reports disconnected.
        public convenience init() {
            self.init(backend: UnmonitoredBackend(status: .disconnected, provenance: .none))
        }
    }
#endif

#if !os(Linux) && !(canImport(Foundation) && (os(macOS) || os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)))
    extension PowerObserver {
        /// Creates an observer that reports ``PowerStatus/unrestricted``: this platform has no source.
        public convenience init() {
            self.init(backend: UnmonitoredBackend(status: .unrestricted, provenance: .none))
        }
    }
#endif
