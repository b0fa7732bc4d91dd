import SyncGateCore

/// Combines the rtnetlink status with NetworkManager's and ModemManager's facts into the published status
/// and its provenance.
///
/// Either input may change on its own thread; each change recomputes the merge
/// (``NetworkManagerMapping/merge(link:networkManager:)``, then ``ModemManagerMapping/apply(_:to:)`` for
/// roaming) inside the merger's critical section, and then,
/// with that lock released, publishes the newest merge: the broadcast reads it inside its own critical
/// section, so whichever of two concurrent publications runs last publishes the newer merge and the
/// published order follows the order of the inputs. Nothing downstream (the environment, waiters, the
/// scheduler) ever runs under the merger's lock, so a synchronous observer may read ``provenance``.
/// NetworkManager going away just sets its facts to `nil`: the next value is the heuristic's, and no
/// link change is lost meanwhile.
final class LinuxConnectivityMerger: Sendable {
    private struct State {
        var link: ConnectivityStatus
        var networkManager: NetworkManagerFacts?
        var modemManager: ModemManagerFacts?
        var status: ConnectivityStatus
        var provenance: ConnectivityProvenance
    }

    /// The published, merged status.
    let broadcast: StatusBroadcast<ConnectivityStatus>
    private let state: LockedState<State>

    /// Creates a merger whose first status is `link` alone.
    init(link: ConnectivityStatus) {
        let (status, provenance) = Self.merge(link: link, networkManager: nil, modemManager: nil)
        broadcast = StatusBroadcast(status)
        state = LockedState(State(link: link, networkManager: nil, status: status, provenance: provenance))
    }

    /// Where the published fields come from now.
    var provenance: ConnectivityProvenance { state.withLock { $0.provenance } }

    /// The link status changed.
    func update(link: ConnectivityStatus) {
        publish { $0.link = link }
    }

    /// NetworkManager's facts changed; `nil` means it is absent.
    func update(networkManager: NetworkManagerFacts?) {
        publish { $0.networkManager = networkManager }
    }

    /// ModemManager's facts changed; `nil` means it is absent.
    func update(modemManager: ModemManagerFacts?) {
        publish { $0.modemManager = modemManager }
    }

    private static func merge(
        link: ConnectivityStatus, networkManager: NetworkManagerFacts?, modemManager: ModemManagerFacts?
    ) -> (ConnectivityStatus, ConnectivityProvenance) {
        var (status, provenance) = NetworkManagerMapping.merge(link: link, networkManager: networkManager)
        (status, provenance.isRoaming) = ModemManagerMapping.apply(modemManager, to: status)
        return (status, provenance)
    }

    private func publish(_ change: (inout State) -> Void) {
        state.withLock { state in
            change(&state)
            (state.status, state.provenance) = Self.merge(
                link: state.link, networkManager: state.networkManager, modemManager: state.modemManager)
        }
        // Lock order: broadcast, then merger (a leaf: it never calls out while held).
        broadcast.update { [state] published in published = state.withLock { $0.status } }
    }
}
