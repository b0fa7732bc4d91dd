/// Combines the rtnetlink status with NetworkManager's facts into the published status and its provenance.
///
/// Either input may change on its own thread; each change recomputes the merge
/// (``NetworkManagerMapping/merge(link:networkManager:)``) and publishes it inside one critical section, so
/// the published order is the order of the inputs. NetworkManager going away just sets its facts to `nil`:
/// the next value is the heuristic's, and no link change is lost meanwhile.
final class LinuxConnectivityMerger: Sendable {
    private struct State {
        var link: ConnectivityStatus
        var networkManager: NetworkManagerFacts?
        var provenance: ConnectivityProvenance
    }

    /// The published, merged status.
    let broadcast: StatusBroadcast<ConnectivityStatus>
    private let state: LockedState<State>

    /// Creates a merger whose first status is `link` alone.
    init(link: ConnectivityStatus) {
        let (status, provenance) = NetworkManagerMapping.merge(link: link, networkManager: nil)
        broadcast = StatusBroadcast(status)
        state = LockedState(State(link: link, networkManager: nil, provenance: provenance))
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

    private func publish(_ change: (inout State) -> Void) {
        state.withLock { state in
            change(&state)
            let (status, provenance) = NetworkManagerMapping.merge(
                link: state.link, networkManager: state.networkManager)
            state.provenance = provenance
            broadcast.send(status)
        }
    }
}
