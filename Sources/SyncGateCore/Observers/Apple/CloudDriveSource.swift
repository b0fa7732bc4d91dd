/// The iCloud Drive source: available while `FileManager.ubiquityIdentityToken` is not `nil`, re-read on
/// every `NSUbiquityIdentityDidChange`.
///
/// Created on Apple platforms by ``SyncEnvironment/init(monitoring:cloudKit:)`` when the cloud drive is
/// monitored.
public final class CloudDriveSource: BroadcastBacked, CloudDriveObserving {
    /// The broadcast that holds the availability.
    package let broadcast: StatusBroadcast<Bool>
    private let reader: any UbiquityIdentityReading
    private let stopped = LockedState(false)

    /// Reads the identity now and follows its changes.
    init(reader: any UbiquityIdentityReading) {
        self.reader = reader
        let broadcast = StatusBroadcast(false)
        self.broadcast = broadcast
        reader.startObserving { [weak broadcast] in
            let available = reader.hasIdentity()
            guard let broadcast, broadcast.send(available) else { return }
            SyncGateLog.log(available ? .info : .warning, "cloud drive source \(available ? "regained" : "lost")")
        }
        broadcast.send(reader.hasIdentity())
    }

    deinit {
        stop()
        broadcast.finish()
    }

    /// Whether iCloud Drive is available now. Thread-safe.
    public var isAvailable: Bool { broadcast.value }

    /// A new multicast stream: the current availability first, then every change.
    public var availabilityStream: AsyncStream<Bool> { broadcast.stream(retaining: self) }

    /// Stops following the identity, once.
    func stop() {
        let first = stopped.withLock { wasStopped in
            defer { wasStopped = true }
            return !wasStopped
        }
        if first { reader.stopObserving() }
    }
}
