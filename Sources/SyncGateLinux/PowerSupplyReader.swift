import SyncGateCore

#if os(Linux)
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #endif

    /// Reads `<sysfsRoot>/class/power_supply/*` into ``PowerSupply`` values.
    ///
    /// Reading never fails: a missing `class/power_supply` directory reads as no supplies, and an
    /// attribute that is missing, unreadable (a directory, a permission error, `EIO` from a driver) or
    /// malformed reads as unknown. The root is a parameter so tests point it at fixture trees.
    package enum PowerSupplyReader {
        /// The largest attribute file read; sysfs attributes are at most one page.
        static let maximumAttributeLength = 4096

        /// Reads every supply under `<sysfsRoot>/class/power_supply`, sorted by name.
        package static func readSupplies(sysfsRoot: String) -> [PowerSupply] {
            let directory = sysfsRoot + "/class/power_supply"
            return entryNames(of: directory).sorted().map { name in
                readSupply(named: name, at: directory + "/" + name)
            }
        }

        /// Reads the supplies and maps them to a status with ``PowerStatus/init(powerSupplies:)``.
        package static func readStatus(sysfsRoot: String) -> (status: PowerStatus, hasSystemBattery: Bool) {
            let supplies = readSupplies(sysfsRoot: sysfsRoot)
            return (PowerStatus(powerSupplies: supplies), supplies.contains(where: \.isSystemBattery))
        }

        /// Reads the attributes of the supply in `path` that the mapping uses.
        static func readSupply(named name: String, at path: String) -> PowerSupply {
            func text(_ attribute: String) -> String? { readAttribute(path + "/" + attribute) }
            func number(_ attribute: String) -> Int? { text(attribute).flatMap { Int($0) } }

            var supply = PowerSupply(name: name, type: text("type"), scope: text("scope"))
            switch supply.type {
            case "Battery":
                supply.present = number("present")
                supply.status = text("status")
                supply.capacity = number("capacity")
                supply.energyNow = number("energy_now")
                supply.energyFull = number("energy_full")
                if supply.energyFull == nil {
                    supply.chargeNow = number("charge_now")
                    supply.chargeFull = number("charge_full")
                    supply.voltageMinDesign = number("voltage_min_design")
                }
                if supply.capacity == nil {
                    supply.capacityLevel = text("capacity_level")
                }
            case .some:
                supply.online = number("online")
            case nil:
                break
            }
            return supply
        }

        /// The contents of one attribute file without surrounding whitespace; `nil` when the file
        /// cannot be read, is empty, or is longer than ``maximumAttributeLength``.
        static func readAttribute(_ path: String) -> String? {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return nil }
            defer { close(descriptor) }
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: maximumAttributeLength + 1)
            while bytes.count <= maximumAttributeLength {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count >= 0 else { return nil }
                if count == 0 { break }
                bytes += buffer[..<count]
            }
            guard bytes.count <= maximumAttributeLength else { return nil }
            let isSpace: (UInt8) -> Bool = { $0 == 0x20 || (0x09...0x0D).contains($0) }
            guard let first = bytes.firstIndex(where: { !isSpace($0) }),
                let last = bytes.lastIndex(where: { !isSpace($0) })
            else { return nil }
            return String(decoding: bytes[first...last], as: UTF8.self)
        }

        /// The names in `directory`, without `.` and `..`; empty when it cannot be listed.
        static func entryNames(of directory: String) -> [String] {
            DirectoryListing.entries(of: directory)?.map(\.name) ?? []
        }
    }
#endif
