/// What the power daemons on D-Bus say: power-profiles-daemon's active profile and UPower's `OnBattery`.
struct PowerDBusFacts: Sendable, Hashable {
    /// `ActiveProfile` (`power-saver`, `balanced`, `performance`), when a profiles daemon is present.
    var activeProfile: String?
    /// The bus name the profile came from (the current or the legacy name).
    var profilesBusName: String?
    /// UPower's `OnBattery`, when UPower is present.
    var onBattery: Bool?

    /// Nothing known: no daemon present.
    static let none = PowerDBusFacts()
}
