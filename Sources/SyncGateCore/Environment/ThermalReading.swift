/// The thermal zone nearest its passive trip point: its temperature and that trip point.
///
/// The kernel starts passive cooling (throttling) of a zone at its `passive` trip point; the device is
/// hot while any zone is at or above it (``isHot``).
public struct ThermalReading: Sendable, Hashable, CustomStringConvertible {
    /// The zone's name: its `type` (`x86_pkg_temp`, `acpitz`), or its directory (`thermal_zone0`).
    public var zone: String
    /// The zone's temperature, in degrees Celsius.
    public var celsius: Double
    /// The zone's lowest `passive` trip point, in degrees Celsius.
    public var passiveCelsius: Double

    /// Creates a reading.
    public init(zone: String, celsius: Double, passiveCelsius: Double) {
        self.zone = zone
        self.celsius = celsius
        self.passiveCelsius = passiveCelsius
    }

    /// Whether the zone is at or above its passive trip point.
    public var isHot: Bool { celsius >= passiveCelsius }

    /// `acpitz 45.0 °C (passive 95.0 °C)`.
    public var description: String {
        "\(zone) \(Self.format(celsius)) °C (passive \(Self.format(passiveCelsius)) °C)"
    }

    /// Degrees with one decimal: `45.0`; a value that is not finite, or beyond ±10¹², as Swift writes it.
    static func format(_ celsius: Double) -> String {
        guard celsius.isFinite, abs(celsius) < 1e12 else { return "\(celsius)" }
        let tenths = Int((celsius * 10).rounded())
        let sign = tenths < 0 ? "-" : ""
        return "\(sign)\(abs(tenths) / 10).\(abs(tenths) % 10)"
    }
}
