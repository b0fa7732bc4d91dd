/// Which sources decided a ``ResourceStatus``, with notes on sources that are missing.
public struct ResourceProvenance: Sendable, Hashable, CustomStringConvertible {
    /// The source of ``ResourceStatus/isUnderPressure``: ``StatusOrigin/psi``, or
    /// ``StatusOrigin/unavailable`` where pressure cannot be read (it then never blocks).
    public var pressure: StatusOrigin
    /// The source of ``ResourceStatus/isHot``: ``StatusOrigin/thermalZones``, or
    /// ``StatusOrigin/unavailable`` where no thermal zone has a passive trip point (it then never blocks).
    public var heat: StatusOrigin
    /// Why a source is unavailable, and problems met with one (each once).
    public var notes: [String]

    /// Creates a provenance record.
    public init(pressure: StatusOrigin, heat: StatusOrigin, notes: [String] = []) {
        self.pressure = pressure
        self.heat = heat
        self.notes = notes
    }

    /// `pressure: PSI …; heat: …`, then the notes.
    public var description: String {
        (["pressure: \(pressure)", "heat: \(heat)"] + notes.map { "note: \($0)" }).joined(separator: "; ")
    }
}
