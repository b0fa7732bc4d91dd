/// Whether the machine is struggling: its CPU, I/O or memory under pressure, or the device hot.
///
/// ``isUnderPressure`` and ``isHot`` are what the requirements ``SyncRequirements/notUnderPressure`` and
/// ``SyncRequirements/notHot`` read; ``pressure``, ``pressureThresholds`` and ``thermal`` are the figures
/// behind them, for reports. A status that knows nothing is neither under pressure nor hot, so a source
/// that cannot tell never blocks a job.
public struct ResourceStatus: Sendable, Hashable, CustomStringConvertible {
    /// Whether some resource is under pressure: its stall share reached its threshold, and has not yet
    /// fallen below it.
    public var isUnderPressure: Bool
    /// The pressure of each resource last read; `nil` when none was read (no source, or unavailable).
    public var pressure: PressureLevels?
    /// The thresholds the pressure is judged by.
    public var pressureThresholds: PressureThresholds
    /// Whether the device is hot: on Linux a thermal zone at or above its passive trip point, on Apple
    /// platforms a `.serious` or `.critical` thermal state.
    public var isHot: Bool
    /// The thermal zone nearest its passive trip point, when one was read (Linux only).
    public var thermal: ThermalReading?

    /// Creates a status; by default neither under pressure nor hot, with the default thresholds.
    public init(
        isUnderPressure: Bool = false, pressure: PressureLevels? = nil,
        pressureThresholds: PressureThresholds = .default, isHot: Bool = false, thermal: ThermalReading? = nil
    ) {
        self.isUnderPressure = isUnderPressure
        self.pressure = pressure
        self.pressureThresholds = pressureThresholds
        self.isHot = isHot
        self.thermal = thermal
    }

    /// Nothing known: not under pressure, not hot.
    public static let unknown = ResourceStatus()

    /// A readable summary, such as `pressure low (cpu 3.10 %, io 0.00 %, memory 0.00 %); not hot`.
    public var description: String {
        let levels = pressure.map { " (\($0))" } ?? ""
        let heat = (isHot ? "hot" : "not hot") + (thermal.map { " (\($0))" } ?? "")
        return "pressure \(isUnderPressure ? "high" : "low")\(levels); \(heat)"
    }
}
