#if os(Linux)
    import Foundation

    /// One attribute file of a fixture supply: text (written with a trailing newline, like sysfs), raw
    /// bytes, or a directory in the file's place, which makes the attribute unreadable even for root.
    enum PowerFixtureFile: Sendable, Hashable, ExpressibleByStringLiteral {
        case text(String)
        case bytes([UInt8])
        case unreadable

        init(stringLiteral value: String) {
            self = .text(value)
        }
    }

    /// One supply of a fixture tree: a directory name and its attribute files.
    struct PowerFixtureSupply: Sendable, Hashable {
        var name: String
        var files: [String: PowerFixtureFile]

        init(_ name: String, _ files: [String: PowerFixtureFile]) {
            self.name = name
            self.files = files
        }

        static func mains(_ name: String = "AC", online: PowerFixtureFile) -> Self {
            Self(name, ["type": "Mains", "online": online])
        }

        static func battery(
            _ name: String = "BAT0",
            status: PowerFixtureFile,
            capacity: PowerFixtureFile? = nil,
            extra: [String: PowerFixtureFile] = [:]
        ) -> Self {
            var files: [String: PowerFixtureFile] = [
                "type": "Battery", "status": status, "present": "1", "scope": "System",
            ]
            files["capacity"] = capacity
            files.merge(extra) { $1 }
            return Self(name, files)
        }
    }

    /// A temporary sysfs root holding `class/power_supply`, removed when released.
    final class PowerSupplyFixture: Sendable {
        /// The root to pass as `sysfsRoot`.
        let root: String
        private var directory: String { root + "/class/power_supply" }

        /// Creates a tree with the given supplies; with `createsClassDirectory` false, not even
        /// `class/power_supply` exists.
        init(_ supplies: [PowerFixtureSupply] = [], createsClassDirectory: Bool = true) throws {
            root = NSTemporaryDirectory() + "syncgate-power-" + UUID().uuidString
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
            if createsClassDirectory {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            }
            for supply in supplies {
                try add(supply)
            }
        }

        deinit {
            try? FileManager.default.removeItem(atPath: root)
        }

        /// Adds a supply directory with its files.
        func add(_ supply: PowerFixtureSupply) throws {
            try FileManager.default.createDirectory(
                atPath: directory + "/" + supply.name, withIntermediateDirectories: true)
            for (attribute, file) in supply.files {
                try set(supply.name, attribute, file)
            }
        }

        /// Writes one attribute file, replacing what was there.
        func set(_ name: String, _ attribute: String, _ file: PowerFixtureFile) throws {
            let path = directory + "/" + name + "/" + attribute
            try? FileManager.default.removeItem(atPath: path)
            switch file {
            case .text(let text):
                try Data((text + "\n").utf8).write(to: URL(fileURLWithPath: path))
            case .bytes(let bytes):
                try Data(bytes).write(to: URL(fileURLWithPath: path))
            case .unreadable:
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            }
        }

        /// Removes a supply directory, as when a battery is taken out.
        func remove(_ name: String) throws {
            try FileManager.default.removeItem(atPath: directory + "/" + name)
        }
    }
#endif
