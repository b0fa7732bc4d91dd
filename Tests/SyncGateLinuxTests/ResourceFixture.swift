#if os(Linux)
    import Foundation

    /// A temporary tree of PSI files (`pressure/{cpu,io,memory}`) and thermal zones
    /// (`thermal/thermal_zoneN/…`), removed when released.
    final class ResourceFixture: Sendable {
        /// One zone of the tree: its type, temperature and trip points, in millidegrees Celsius.
        struct Zone: Sendable {
            var type: String
            var milliCelsius: Int?
            var trips: [(type: String, milliCelsius: Int)]
        }

        /// The root of the tree.
        let root: String
        /// The directory to pass as the observer's `pressureDirectory`.
        var pressureDirectory: String { root + "/pressure" }
        /// The directory to pass as the observer's `thermalRoot`.
        var thermalRoot: String { root + "/thermal" }

        /// Creates a tree whose PSI files say `pressure` (`some avg10` percent for cpu, io, memory; `nil`
        /// leaves them out) and with the given zones.
        init(pressure: (cpu: Double, io: Double, memory: Double)? = (0, 0, 0), zones: [Zone] = []) throws {
            root = NSTemporaryDirectory() + "syncgate-resources-" + UUID().uuidString
            try FileManager.default.createDirectory(atPath: thermalRoot, withIntermediateDirectories: true)
            if let pressure {
                try FileManager.default.createDirectory(atPath: pressureDirectory, withIntermediateDirectories: true)
                try setPressure(cpu: pressure.cpu, io: pressure.io, memory: pressure.memory)
            }
            for (index, zone) in zones.enumerated() {
                try setZone(index, zone)
            }
        }

        deinit {
            try? FileManager.default.removeItem(atPath: root)
        }

        /// Rewrites the PSI files as the kernel shows them, with these `some avg10` values and a `some total`
        /// of `cpuTotal` µs for the CPU (1234 for the others).
        func setPressure(cpu: Double, io: Double, memory: Double, cpuTotal: UInt64 = 1234) throws {
            for (name, value, total) in [("cpu", cpu, cpuTotal), ("io", io, 1234), ("memory", memory, 1234)] {
                let text =
                    "some avg10=\(String(format: "%.2f", value)) avg60=0.00 avg300=0.00 total=\(total)\n"
                    + "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"
                try text.write(toFile: pressureDirectory + "/" + name, atomically: false, encoding: .utf8)
            }
        }

        /// Writes zone `index` (`thermal_zone<index>`), replacing its files.
        func setZone(_ index: Int, _ zone: Zone) throws {
            let directory = thermalRoot + "/thermal_zone\(index)"
            try? FileManager.default.removeItem(atPath: directory)
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            func write(_ name: String, _ text: String) throws {
                try (text + "\n").write(toFile: directory + "/" + name, atomically: false, encoding: .utf8)
            }
            try write("type", zone.type)
            if let temperature = zone.milliCelsius { try write("temp", String(temperature)) }
            for (trip, point) in zone.trips.enumerated() {
                try write("trip_point_\(trip)_type", point.type)
                try write("trip_point_\(trip)_temp", String(point.milliCelsius))
            }
        }
    }
#endif
