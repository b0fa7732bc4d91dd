/// Which source decided each field of a ``PowerStatus``, with notes on sources that are missing.
public struct PowerProvenance: Sendable, Hashable, CustomStringConvertible {
    /// The source of ``PowerStatus/isLowPowerModeEnabled``.
    public var isLowPowerModeEnabled: StatusOrigin
    /// The source of ``PowerStatus/isOnExternalPower``.
    public var isOnExternalPower: StatusOrigin
    /// The source of ``PowerStatus/batteryLevel``.
    public var batteryLevel: StatusOrigin
    /// The source of ``PowerStatus/isDeviceIdle``.
    public var isDeviceIdle: StatusOrigin
    /// Why a better source is not used, and problems met with one (each once).
    public var notes: [String]

    /// Creates a provenance record.
    public init(
        isLowPowerModeEnabled: StatusOrigin,
        isOnExternalPower: StatusOrigin,
        batteryLevel: StatusOrigin,
        isDeviceIdle: StatusOrigin = .defaultValue,
        notes: [String] = []
    ) {
        self.isDeviceIdle = isDeviceIdle
        self.isLowPowerModeEnabled = isLowPowerModeEnabled
        self.isOnExternalPower = isOnExternalPower
        self.batteryLevel = batteryLevel
        self.notes = notes
    }

    /// No source at all: every field holds its default.
    public static let none = PowerProvenance(
        isLowPowerModeEnabled: .defaultValue, isOnExternalPower: .defaultValue, batteryLevel: .defaultValue)

    /// `low power mode: …; external power: …; battery level: …; device idle: …`, then the notes.
    public var description: String {
        let fields = [
            "low power mode: \(isLowPowerModeEnabled)", "external power: \(isOnExternalPower)",
            "battery level: \(batteryLevel)", "device idle: \(isDeviceIdle)",
        ]
        return (fields + notes.map { "note: \($0)" }).joined(separator: "; ")
    }
}
