/// What ModemManager says about the primary modem: its object path and its 3GPP registration state.
struct ModemManagerFacts: Sendable, Hashable {
    /// The primary modem's object path, such as `/org/freedesktop/ModemManager1/Modem/0`; `nil` without a
    /// modem that has a 3GPP interface.
    var primaryModem: String?
    /// The primary modem's `Modem3gpp.RegistrationState` (an `MMModem3gppRegistrationState`).
    var registrationState: UInt32?

    /// ModemManager present, with no 3GPP modem.
    static let noModem = ModemManagerFacts()
}
