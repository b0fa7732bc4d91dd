/// The facts of one `NWPath` that SyncGate reads, as a platform-neutral value: what the Apple seam
/// delivers and the network mapping reads.
package struct PathSnapshot: Sendable, Hashable {
    /// `path.status`.
    package var status: PathStatusMirror
    /// `path.unsatisfiedReason`.
    package var unsatisfiedReason: PathUnsatisfiedReasonMirror = .notAvailable
    /// The interface types the path uses (`path.usesInterfaceType(_:)` for each type), in any order.
    package var usedInterfaceTypes: Set<InterfaceTypeMirror> = []
    /// `path.isExpensive`.
    package var isExpensive = false
    /// `path.isConstrained` (Low Data Mode).
    package var isConstrained = false

    /// Creates a snapshot; the fields left out are those of an unconstrained, inexpensive path on no
    /// interface.
    package init(
        status: PathStatusMirror, unsatisfiedReason: PathUnsatisfiedReasonMirror = .notAvailable,
        usedInterfaceTypes: Set<InterfaceTypeMirror> = [], isExpensive: Bool = false, isConstrained: Bool = false
    ) {
        self.status = status
        self.unsatisfiedReason = unsatisfiedReason
        self.usedInterfaceTypes = usedInterfaceTypes
        self.isExpensive = isExpensive
        self.isConstrained = isConstrained
    }

    /// The connectivity status of the path.
    ///
    /// Connected only when the status is `.satisfied` (`.requiresConnection` is not a usable path yet);
    /// the interface is the first used type in ``InterfaceTypeMirror/precedence``, or `.other` for a
    /// satisfied path that reports none. A path that is not satisfied is ``ConnectivityStatus/disconnected``
    /// whatever its flags say, so a stale `isExpensive` never outlives the path.
    ///
    /// `isExpensive` is the system's judgement and the only verdict an app gets: confirmed metered; a path
    /// the system calls inexpensive is confirmed unmetered, or only guessed unmetered in Low Data Mode
    /// (the user asked to save data on it).
    var connectivityStatus: ConnectivityStatus {
        guard status == .satisfied else { return .disconnected }
        let primary = InterfaceTypeMirror.precedence.first { usedInterfaceTypes.contains($0) }
        return ConnectivityStatus(
            isConnected: true,
            interface: primary?.connectionInterface ?? .other,
            metered: meteredConfidence,
            isConstrained: isConstrained
        )
    }

    /// The metered verdict of a satisfied path (see ``connectivityStatus``).
    var meteredConfidence: MeteredConfidence {
        if isExpensive { return .confirmedMetered }
        return isConstrained ? .guessedUnmetered : .confirmedUnmetered
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
