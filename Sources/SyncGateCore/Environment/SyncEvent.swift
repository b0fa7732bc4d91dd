/// What the app's sync engine is doing right now.
public enum SyncEvent: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Not syncing.
    case idle
    /// Setting up (creating zones, initial handshake).
    case setup
    /// Importing remote changes.
    case importing
    /// Exporting local changes.
    case exporting

    /// The case name, such as `idle` or `importing`.
    public var description: String {
        switch self {
        case .idle: "idle"
        case .setup: "setup"
        case .importing: "importing"
        case .exporting: "exporting"
        }
    }
}
