import Dispatch

/// Follows a ``PathMonitoring`` seam: maps each snapshot to a ``ConnectivityStatus``, publishes it, keeps
/// the newest snapshot for the provenance, and logs when the network is lost and regained.
///
/// The status lives in a ``StatusBroadcast``, so the network source has the same multicast, ordering and
/// deduplication guarantees on Apple platforms as on Linux.
package final class PathFollower: PlatformBackend {
    /// The broadcast that holds the status.
    package let broadcast: StatusBroadcast<ConnectivityStatus>
    private let monitor: any PathMonitoring
    private let latest = LockedState<PathSnapshot?>(nil)
    private let first = DispatchSemaphore(value: 0)

    /// Starts `monitor` and publishes its snapshots.
    package init(monitor: any PathMonitoring) {
        let broadcast = StatusBroadcast(ConnectivityStatus.disconnected)
        let latest = latest
        let first = first
        self.broadcast = broadcast
        self.monitor = monitor
        monitor.start { snapshot in
            let previous = latest.withLock { state in
                defer { state = snapshot }
                return state
            }
            broadcast.send(snapshot.connectivityStatus)
            Self.logTransition(from: previous, to: snapshot)
            if previous == nil { first.signal() }
        }
    }

    /// Waits until the first snapshot was published, for at most `seconds`; `true` when it was.
    ///
    /// Apple's monitor delivers the current path shortly after it starts; waiting for it makes the
    /// observer's status right from the first read.
    @discardableResult
    package func waitForFirstSnapshot(seconds: Double) -> Bool {
        if snapshot != nil { return true }
        guard first.wait(timeout: .now() + seconds) == .success else { return false }
        first.signal()
        return true
    }

    /// The newest snapshot, `nil` before the first.
    var snapshot: PathSnapshot? { latest.withLock { $0 } }

    /// `NWPathMonitor` for every field except reachability (no validator), with a note saying why an
    /// unusable path is unusable, such as `NWPathMonitor: path unsatisfied (Wi-Fi denied to the app)`.
    package var provenance: ConnectivityProvenance {
        let notes = snapshot?.unusableReason.map { ["NWPathMonitor: path \($0)"] } ?? []
        return ConnectivityProvenance(
            isConnected: .networkPathMonitor, interface: .networkPathMonitor, isExpensive: .networkPathMonitor,
            isConstrained: .networkPathMonitor, reachability: .defaultValue, notes: notes)
    }

    /// Cancels the monitor.
    package func stop() {
        monitor.cancel()
    }

    /// Logs "lost" when a usable path becomes unusable and "regained" the other way; the first snapshot
    /// is logged at debug level only.
    static func logTransition(from previous: PathSnapshot?, to current: PathSnapshot) {
        let isUsable = current.status == .satisfied
        guard let previous else {
            SyncGateLog.log(.debug, "network source: first path \(current.connectivityStatus)")
            return
        }
        let wasUsable = previous.status == .satisfied
        if wasUsable && !isUsable {
            SyncGateLog.log(.warning, "network source lost: path \(current.unusableReason ?? "")")
        } else if !wasUsable && isUsable {
            SyncGateLog.log(.info, "network source regained: \(current.connectivityStatus)")
        }
    }
}
