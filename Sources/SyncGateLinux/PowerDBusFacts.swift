/// What the power daemons on D-Bus say: power-profiles-daemon's active profile, UPower's `OnBattery` and
/// systemd-logind's `IdleHint`.
struct PowerDBusFacts: Sendable, Hashable {
    /// `ActiveProfile` (`power-saver`, `balanced`, `performance`), when a profiles daemon is present.
    var activeProfile: String?
    /// The bus name the profile came from (the current or the legacy name).
    var profilesBusName: String?
    /// UPower's `OnBattery`, when UPower is present.
    var onBattery: Bool?
    /// systemd-logind's `IdleHint` (every session idle), when logind is present.
    var idleHint: Bool?

    /// Nothing known: no daemon present.
    static let none = PowerDBusFacts()
}
