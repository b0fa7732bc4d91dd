/// The facts of one `NWPath` that SyncGate reads, as a platform-neutral value: what the Apple seam
/// delivers and the network mapping reads.
struct PathSnapshot: Sendable, Hashable {
    /// `path.status`.
    var status: PathStatusMirror
    /// `path.unsatisfiedReason`.
    var unsatisfiedReason: PathUnsatisfiedReasonMirror = .notAvailable
    /// The interface types the path uses (`path.usesInterfaceType(_:)` for each type), in any order.
    var usedInterfaceTypes: Set<InterfaceTypeMirror> = []
    /// `path.isExpensive`.
    var isExpensive = false
    /// `path.isConstrained` (Low Data Mode).
    var isConstrained = false

    /// The connectivity status of the path.
    ///
    /// Connected only when the status is `.satisfied` (`.requiresConnection` is not a usable path yet);
    /// the interface is the first used type in ``InterfaceTypeMirror/precedence``, or `.other` for a
    /// satisfied path that reports none. A path that is not satisfied is ``ConnectivityStatus/disconnected``
    /// whatever its flags say, so a stale `isExpensive` never outlives the path.
    var connectivityStatus: ConnectivityStatus {
        guard status == .satisfied else { return .disconnected }
        let primary = InterfaceTypeMirror.precedence.first { usedInterfaceTypes.contains($0) }
        return ConnectivityStatus(
            isConnected: true,
            interface: primary?.connectionInterface ?? .other,
            isExpensive: isExpensive,
            isConstrained: isConstrained
        )
    }

    /// Why the path is not usable, for logs and provenance notes; `nil` for a satisfied path.
    var unusableReason: String? {
        switch status {
        case .satisfied: nil
        case .unsatisfied: "unsatisfied (\(unsatisfiedReason))"
        case .requiresConnection: "requires a connection (\(unsatisfiedReason))"
        case .unknown: "in a status this SyncGate does not know (\(unsatisfiedReason))"
        }
    }
}
