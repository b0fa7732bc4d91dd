import SyncGate

/// The environment at one moment as `syncgate status` and `watch` print it: lines for people, JSON for
/// programs.
///
/// The JSON schema (version 1) is stable: keys are never renamed or removed within a version, and new
/// keys are only added. Keys appear in this order:
///
/// | key | value |
/// |---|---|
/// | `schemaVersion` | `1` |
/// | `time` | ISO 8601 UTC time of the reading, such as `2025-01-31T12:00:00.000Z` |
/// | `network` | `{monitored, connected, interface, interfaceName, otherNextHops, connection, ssid, expensive, metered, constrained, reachability, roaming}`; `interface` is `wifi`, `cellular`, `wired-ethernet`, `other` or `none`; `interfaceName` is the default route's interface or `null`; `otherNextHops` is a multipath default route's other usable next hops in the route's order, each `{interfaceName, interface}` (empty for a single path); `connection` and `ssid` are the network in use's connection id and Wi-Fi SSID (NetworkManager) or `null` (`SyncNetwork`, what `--network` matches); `metered` is `confirmed-unmetered`, `guessed-unmetered`, `unknown`, `guessed-metered` or `confirmed-metered` (`MeteredConfidence`; `expensive` is `true` for the two metered ones); `reachability` is `unknown`, `local`, `limited`, `captive-portal` or `internet` |
/// | `power` | `{monitored, externalPower, batteryLevel, batteryLow, lowPowerMode, deviceIdle}`; `batteryLevel` is 0…1 or `null` |
/// | `account` | `{monitored, status}`; `status` is `available`, `no-account`, `restricted`, `temporarily-unavailable` or `could-not-determine` |
/// | `cloudDrive` | `{monitored, available}` |
/// | `syncEvent` | `{monitored, event}`; `event` is `idle`, `setup`, `importing` or `exporting` |
/// | `storage` | `{monitored, path, availableBytes, capacityBytes, thresholdBytes, low}`; the byte counts are `null` when unknown |
/// | `resources` | `{monitored, underPressure, pressure, pressureThresholds, hot, thermal}`; `pressure` is `{cpu, io, memory}`, each `some avg10` in percent or `null`, and `null` when pressure is unavailable; `pressureThresholds` is `{cpu, io, memory}` in percent; `thermal` is `{zone, celsius, passiveCelsius}` (the zone nearest its passive trip point) or `null` |
/// | `conditions` | the app-defined conditions that hold, sorted (always empty for a lone `syncgate`) |
/// | `requirements` | one `{name, holds, monitored}` per requirement, in the order of `SyncRequirements.members`; `holds` is `true` with `monitored` `false` for "not monitored, treated as met" |
/// | `presets` | one `{name, holds, treatedAsMet}` per preset; `treatedAsMet` lists its requirements that are not monitored |
/// | `met` | the names of the requirements that hold |
/// | `treatedAsMet` | the names of the requirements that hold only because their part is not monitored |
/// | `sources` | `{fields, notes}`: `fields` maps each network and power field (`connected`, `interface`, `expensive`, `metered`, `constrained`, `reachability`, `roaming`, `external power`, `battery`, `low power mode`, `device idle`, `free space`, `pressure`, `heat`) to the source that decided it, such as `rtnetlink`, `NetworkManager` or `sysfs power_supply`, and `network interface` and `network connection` to the sources of the network in use; `notes` say why a better source is not used; `null` when not known |
package struct StatusReport: Sendable {
    /// The version written as `schemaVersion`.
    package static let schemaVersion = 1

    /// The status described.
    package var status: SyncEnvironmentStatus
    /// The name of the default route's interface, when known: the observer's
    /// (``SyncGate/SyncNetwork/interfaceName``), else the one given.
    package var interfaceName: String? {
        get { status.connectivity.network.interfaceName ?? givenInterfaceName }
        set { givenInterfaceName = newValue }
    }
    private var givenInterfaceName: String?
    /// The time of the reading, already formatted (ISO 8601, UTC).
    package var time: String
    /// Which source decided each field, when known.
    package var sources: StatusOrigins?

    /// Creates a report.
    package init(status: SyncEnvironmentStatus, interfaceName: String?, time: String, sources: StatusOrigins? = nil) {
        self.status = status
        self.givenInterfaceName = interfaceName
        self.time = time
        self.sources = sources
    }

    private var monitored: MonitoringOptions { status.monitoredParts }

    /// The report as JSON, in the schema documented on the type.
    ///
    /// The parts follow ``StatusLayout``: each requirement's fact under its descriptor's
    /// ``SyncGate/SyncRequirementDescriptor/Field/key``.
    package var json: JSONValue {
        let satisfied = status.satisfiedRequirements
        let treated = status.requirementsTreatedAsMet
        let requirements: [JSONValue] = SyncRequirements.members.map { member in
            .object([
                ("name", .string(member.name)),
                ("holds", .bool(satisfied.contains(member.requirement))),
                ("monitored", .bool(!treated.contains(member.requirement))),
            ])
        }
        let presets: [JSONValue] = SyncRequirements.presets.map { preset in
            .object([
                ("name", .string(preset.name)),
                ("holds", .bool(satisfied.isSuperset(of: preset.requirement))),
                ("treatedAsMet", .array(preset.requirement.intersection(treated).names.map { .string($0) })),
            ])
        }
        let parts: [(String, JSONValue)] = StatusLayout.parts.map { layout in
            let facts: [(String, JSONValue)] = layout.jsonSlots.map { slot in
                switch slot {
                case .requirement(let descriptor):
                    switch descriptor.field.reading(status) {
                    case .flag(let flag): (descriptor.field.key, .bool(flag))
                    case .word(let word): (descriptor.field.key, .string(word))
                    }
                case .other(let key, let value): (key, value(self))
                }
            }
            return (layout.key, .object([("monitored", .bool(monitored.contains(layout.part)))] + facts))
        }
        return .object(
            [("schemaVersion", .int(Self.schemaVersion)), ("time", .string(time))] + parts + [
                ("conditions", .array(status.conditions.map(\.name).sorted().map { .string($0) })),
                ("requirements", .array(requirements)),
                ("presets", .array(presets)),
                ("met", .array(satisfied.names.map { .string($0) })),
                ("treatedAsMet", .array(treated.names.map { .string($0) })),
                ("sources", sources?.json ?? .null),
            ])
    }

    /// The phrase used for a part without a source.
    package static let notMonitored = "not monitored, treated as met"

    /// The interface, with its name when known: `wired-ethernet (eth0)`.
    package var interfaceText: String {
        let connectivity = status.connectivity
        guard connectivity.isConnected else { return "none" }
        if let interfaceName { return "\(connectivity.interface) (\(interfaceName))" }
        return "\(connectivity.interface) (name unknown: the observer reports only the kind)"
    }

    /// The network in use, for allowed networks (`--network`): `wlan0, connection "Home", ssid "Home"`,
    /// or `unknown`; `none` while disconnected.
    package var networkText: String {
        Self.networkText(of: status, interfaceName: interfaceName)
    }

    /// The network in use in `status` as ``networkText`` shows it, named `interfaceName` when the status
    /// names no interface; what `wait` and `run` say an allowed network is not.
    package static func networkText(of status: SyncEnvironmentStatus, interfaceName: String? = nil) -> String {
        let connectivity = status.connectivity
        guard connectivity.isConnected else { return "none" }
        var network = connectivity.network
        network.interfaceName = network.interfaceName ?? interfaceName
        return DaemonLimits.escaped(network.description)
    }

    /// The battery: `80%`, `15% (low)`, or a note that no level is known.
    package var batteryText: String {
        guard let level = status.power.batteryLevel else { return "no level (no battery, or not reported)" }
        let percent = Int((level * 100).rounded())
        return "\(percent)%" + (status.power.isBatteryLow ? " (low)" : "")
    }

    /// The free space: `1.2 GiB free of 20.0 GiB on /srv (low below 500.0 MiB)`.
    package var storageText: String {
        let storage = status.storage
        let path = storage.path.map { " on \($0)" } ?? ""
        return "\(storage)\(path) (low below \(StorageStatus.format(storage.thresholdBytes)))"
    }

    /// The pressure: `low (cpu 3.10 %, io 0.00 %, memory 0.00 %; high at cpu 50.00 %, io 25.00 %, memory
    /// 10.00 %)`.
    package var pressureText: String {
        let resources = status.resources
        let levels = resources.pressure.map { "\($0); " } ?? ""
        return "\(resources.isUnderPressure ? "high" : "low") (\(levels)high at \(resources.pressureThresholds))"
    }

    /// The heat: `not hot (acpitz 45.0 °C (passive 95.0 °C))`, or a note that no zone tells.
    package var heatText: String {
        let resources = status.resources
        let zone = resources.thermal.map(\.description) ?? "no thermal zone with a passive trip point"
        return "\(resources.isHot ? "hot" : "not hot") (\(zone))"
    }

    /// The lines of `syncgate status`, styled.
    ///
    /// The rows follow ``StatusLayout``: each requirement's fact under its descriptor's
    /// ``SyncGate/SyncRequirementDescriptor/Field/label``; a part that is not monitored is one row.
    package func lines(style: TerminalStyle) -> [String] {
        var rows: [(String, String)] = []
        for layout in StatusLayout.parts {
            guard monitored.contains(layout.part) else {
                rows.append((layout.label, layout.unmonitored))
                continue
            }
            for slot in layout.rowSlots {
                switch slot {
                case .requirement(let descriptor): rows.append((descriptor.field.label, rowText(descriptor)))
                case .other(let label, let value): rows.append((label, value(self)))
                }
            }
        }
        let conditions = status.conditions.map(\.name).sorted()
        rows.append(("conditions", conditions.isEmpty ? "none" : conditions.joined(separator: ", ")))

        var lines = rows.map { Self.pad($0.0, 16) + $0.1 }
        if let sources {
            lines.append("")
            lines.append(style.paint("sources", .bold))
            // The values start one column past the longest label, whichever fields are listed.
            let width = max(17, (sources.fields.map(\.field.count).max() ?? 0) + 1)
            lines += sources.fields.map { "  " + Self.pad($0.field, width) + $0.source }
            lines += sources.notes.map { "  note: " + $0 }
        }
        lines.append("")
        lines.append(style.paint("requirements now", .bold))
        let satisfied = status.satisfiedRequirements
        let treated = status.requirementsTreatedAsMet
        let names = SyncRequirements.members + SyncRequirements.presets
        let width = (names.map(\.name.count).max() ?? 0) + 1
        for member in SyncRequirements.members {
            lines.append("  " + Self.pad(member.name, width) + verdict(member.requirement, satisfied, treated, style))
        }
        lines.append(style.paint("presets now", .bold))
        for preset in SyncRequirements.presets {
            lines.append("  " + Self.pad(preset.name, width) + verdict(preset.requirement, satisfied, treated, style))
        }
        return lines
    }

    /// The text of a requirement's row: its descriptor's ``SyncGate/SyncRequirementDescriptor/Field/text(in:)``,
    /// except for the facts the tool writes with more detail (the battery's level, the free space, the
    /// pressure and heat figures, Linux's missing Low Data Mode).
    private func rowText(_ descriptor: SyncRequirementDescriptor) -> String {
        switch descriptor.requirement {
        case .batteryNotLow: return batteryText
        case .storageNotLow: return storageText
        case .notUnderPressure: return pressureText
        case .notHot: return heatText
        #if os(Linux)
            case .unconstrained: return descriptor.field.text(in: status) + " (Linux has no Low Data Mode)"
        #endif
        default: return descriptor.field.text(in: status)
        }
    }

    private func verdict(
        _ requirement: SyncRequirements,
        _ satisfied: SyncRequirements,
        _ treated: SyncRequirements,
        _ style: TerminalStyle
    ) -> String {
        guard satisfied.isSuperset(of: requirement) else {
            let unmet = requirement.subtracting(satisfied)
            let detail = requirement == unmet ? "" : " (\(unmet.names.joined(separator: ", ")))"
            return style.paint("unmet", .red) + detail
        }
        let assumed = requirement.intersection(treated)
        if assumed.isEmpty { return style.paint("met", .green) }
        if assumed == requirement { return style.paint("met", .yellow) + " (\(Self.notMonitored))" }
        return style.paint("met", .green) + " (\(assumed.names.joined(separator: ", ")) \(Self.notMonitored))"
    }

    /// One line for `syncgate watch`: the time, the network, the power, and what holds.
    package func watchLine(style: TerminalStyle) -> String {
        watchLine(summary: watchSummary(style: style), style: style)
    }

    /// The `watch` line with its summary already made (``WatchLineFilter`` compares summaries first).
    func watchLine(summary: String, style: TerminalStyle) -> String {
        style.paint(time, .dim) + " " + summary
    }

    /// What `watch` prints after the time: the network, power and storage parts that are monitored, then
    /// what is unmet.
    ///
    /// Two reports with the same summary look the same to a reader, so `watch` prints a new line only when
    /// the summary changes (see ``WatchLineFilter``).
    package func watchSummary(style: TerminalStyle) -> String {
        var parts: [String] = []
        if monitored.contains(.network) {
            let connectivity = status.connectivity
            if connectivity.isConnected {
                var text = "connected via \(connectivity.interface)"
                if let interfaceName { text += " (\(interfaceName))" }
                if connectivity.isExpensive { text += ", expensive" }
                if connectivity.isConstrained { text += ", constrained" }
                if connectivity.isRoaming { text += ", roaming" }
                parts.append(style.paint(text, .green))
            } else {
                parts.append(style.paint("disconnected", .red))
            }
        }
        if monitored.contains(.power) { parts.append(status.power.description) }
        if monitored.contains(.storage) { parts.append("storage: \(status.storage)") }
        let monitoredRequirements = SyncRequirements.decided(by: monitored)
        let unmet = monitoredRequirements.subtracting(status.satisfiedRequirements)
        parts.append("unmet: " + (unmet.isEmpty ? "none" : unmet.names.joined(separator: ", ")))
        return parts.joined(separator: "; ")
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
