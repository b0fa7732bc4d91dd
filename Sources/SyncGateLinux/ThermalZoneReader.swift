import SyncGateCore

/// Reads the kernel's thermal zones (`<root>/thermal_zone*/{type,temp,trip_point_N_type,trip_point_N_temp}`)
/// and applies the heat rule.
///
/// The rule: the device is hot while any zone's temperature is at or above the lowest of its `passive`
/// trip points (where the kernel starts throttling), with no margin. A zone without a readable
/// temperature or without a passive trip point does not count; where no zone counts, heat is unknown
/// and never blocks. The root is a parameter so tests point it at fixture trees.
package enum ThermalZoneReader {
    /// One zone as read: temperatures in millidegrees Celsius, as sysfs writes them.
    package struct Zone: Sendable, Hashable {
        /// The zone's `type`, or its directory name when it has none.
        package var name: String
        /// `temp`; `nil` when unreadable.
        package var milliCelsius: Int?
        /// The lowest `trip_point_N_temp` whose `trip_point_N_type` is `passive`; `nil` when none.
        package var passiveMilliCelsius: Int?

        /// Creates a zone.
        package init(name: String, milliCelsius: Int?, passiveMilliCelsius: Int?) {
            self.name = name
            self.milliCelsius = milliCelsius
            self.passiveMilliCelsius = passiveMilliCelsius
        }
    }

    /// The zone that decides heat: among the zones with a temperature and a passive trip point, the one
    /// nearest (or furthest beyond) its trip point; `nil` when no zone has both.
    package static func decidingZone(_ zones: [Zone]) -> ThermalReading? {
        let counted = zones.compactMap { zone -> (zone: Zone, temperature: Int, passive: Int)? in
            guard let temperature = zone.milliCelsius, let passive = zone.passiveMilliCelsius else { return nil }
            return (zone, temperature, passive)
        }
        guard let nearest = counted.max(by: { $0.temperature - $0.passive < $1.temperature - $1.passive }) else {
            return nil
        }
        return ThermalReading(
            zone: nearest.zone.name, celsius: Double(nearest.temperature) / 1000,
            passiveCelsius: Double(nearest.passive) / 1000)
    }

    #if os(Linux)
        /// The highest trip point index read per zone.
        static let maximumTripPoints = 32

        /// Reads every `thermal_zone*` directory under `root` (`/sys/class/thermal` on a real system),
        /// sorted by directory name; a missing root reads as no zones.
        package static func readZones(root: String) -> [Zone] {
            PowerSupplyReader.entryNames(of: root).filter { $0.hasPrefix("thermal_zone") }.sorted().map { name in
                let path = root + "/" + name
                func text(_ attribute: String) -> String? { PowerSupplyReader.readAttribute(path + "/" + attribute) }
                var passive: Int?
                for index in 0..<maximumTripPoints {
                    guard let type = text("trip_point_\(index)_type") else { break }
                    guard type == "passive", let temperature = text("trip_point_\(index)_temp").flatMap({ Int($0) })
                    else { continue }
                    passive = min(passive ?? temperature, temperature)
                }
                return Zone(
                    name: text("type") ?? name, milliCelsius: text("temp").flatMap { Int($0) },
                    passiveMilliCelsius: passive)
            }
        }
    #endif
}
