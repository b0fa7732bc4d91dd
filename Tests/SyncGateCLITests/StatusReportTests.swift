import SyncGate
import SyncGateCLI
import Testing

@Suite(.timeLimit(.minutes(1)))
struct StatusReportTests {
    /// Linux without NetworkManager: the link-kind rule only guesses that wired Ethernet is not metered.
    static let linuxLike = SyncEnvironmentStatus(
        connectivity: .connected(via: .wiredEthernet, metered: .guessedUnmetered),
        power: PowerStatus(isOnExternalPower: false, batteryLevel: 0.15),
        monitoredParts: [.network, .power]
    )

    @Test func jsonFollowsTheDocumentedSchema() throws {
        let json = StatusReport(status: Self.linuxLike, interfaceName: "eth0", time: "T").json
        guard case .object(let members) = json else {
            Issue.record("not an object")
            return
        }
        #expect(
            members.map(\.0) == [
                "schemaVersion", "time", "network", "power", "account", "cloudDrive", "syncEvent", "storage",
                "resources", "conditions",
                "requirements", "presets", "met", "treatedAsMet", "sources",
            ])
        #expect(json["schemaVersion"] == .int(1))
        #expect(
            json["network"]
                == .object([
                    ("monitored", .bool(true)), ("connected", .bool(true)), ("interface", .string("wired-ethernet")),
                    ("interfaceName", .string("eth0")), ("otherNextHops", .array([])), ("connection", .null),
                    ("ssid", .null),
                    ("expensive", .bool(false)),
                    ("metered", .string("guessed-unmetered")), ("constrained", .bool(false)),
                    ("reachability", .string("unknown")), ("roaming", .bool(false)),
                ]))
        #expect(
            json["power"]
                == .object([
                    ("monitored", .bool(true)), ("externalPower", .bool(false)), ("batteryLevel", .double(0.15)),
                    ("batteryLow", .bool(true)), ("lowPowerMode", .bool(false)), ("deviceIdle", .bool(true)),
                ]))
        #expect(json["account"] == .object([("monitored", .bool(false)), ("status", .string("could-not-determine"))]))
        #expect(
            json["met"]
                == .array(
                    [
                        "network", "unmetered", "unconstrained", "validated-internet", "not-low-power", "account-ready",
                        "cloud-drive", "storage-not-low", "device-idle", "not-roaming", "not-under-pressure", "not-hot",
                    ].map {
                        .string($0)
                    }))
        #expect(
            json["treatedAsMet"]
                == .array(
                    ["account-ready", "cloud-drive", "storage-not-low", "not-under-pressure", "not-hot"].map {
                        .string($0)
                    }))
        #expect(
            json["resources"]
                == .object([
                    ("monitored", .bool(false)), ("underPressure", .bool(false)), ("pressure", .null),
                    (
                        "pressureThresholds",
                        .object([("cpu", .double(50)), ("io", .double(25)), ("memory", .double(10))])
                    ),
                    ("hot", .bool(false)), ("thermal", .null),
                ]))
        #expect(
            json["storage"]
                == .object([
                    ("monitored", .bool(false)), ("path", .null), ("availableBytes", .null), ("capacityBytes", .null),
                    ("thresholdBytes", .int(0)), ("low", .bool(false)),
                ]))
        guard case .array(let requirements) = json["requirements"] else {
            Issue.record("requirements is not an array")
            return
        }
        #expect(requirements.map { $0["name"] } == SyncRequirements.members.map { JSONValue?.some(.string($0.name)) })
        #expect(
            requirements[2]
                == .object([
                    ("name", .string("unmetered-confirmed")), ("holds", .bool(false)), ("monitored", .bool(true)),
                ]))
        #expect(
            requirements[6]
                == .object([("name", .string("external-power")), ("holds", .bool(false)), ("monitored", .bool(true))]))
        #expect(
            requirements[8]
                == .object([("name", .string("account-ready")), ("holds", .bool(true)), ("monitored", .bool(false))]))
        guard case .array(let presets) = json["presets"] else {
            Issue.record("presets is not an array")
            return
        }
        #expect(presets.map { $0["name"] } == SyncRequirements.presets.map { JSONValue?.some(.string($0.name)) })
        #expect(
            presets[0]
                == .object([
                    ("name", .string("sync-ready")), ("holds", .bool(true)),
                    ("treatedAsMet", .array([.string("account-ready")])),
                ]))
    }

    static let sources = StatusOrigins(
        connectivity: ConnectivityProvenance(
            isConnected: .rtnetlink, interface: .sysfsHeuristic, isExpensive: .sysfsHeuristic,
            isConstrained: .defaultValue, reachability: .defaultValue,
            notes: ["NetworkManager: no D-Bus connection (absent)", "NetworkManager: the same cause again"]),
        power: PowerProvenance(
            isLowPowerModeEnabled: .defaultValue, isOnExternalPower: .sysfs, batteryLevel: .sysfs,
            notes: ["power daemons: no D-Bus connection (absent)"])
    )

    @Test("the network in use: its connection and SSID in the JSON, one text row, and the sources of both")
    func networkInUse() {
        var provenance = Self.sources.connectivity!
        provenance.networkInterface = .rtnetlink
        provenance.networkConnection = .networkManager
        let status = SyncEnvironmentStatus(
            connectivity: ConnectivityStatus.connected(via: .wifi).with(
                network: SyncNetwork(interfaceName: "wlp2s0", connectionID: "Home", ssid: "Home \u{1B}[2J")),
            monitoredParts: [.network])
        let report = StatusReport(
            status: status, interfaceName: "ignored0", time: "T",
            sources: StatusOrigins(connectivity: provenance, power: nil))
        guard case .object(let network) = report.json["network"] else {
            Issue.record("no network object")
            return
        }
        #expect(network.first { $0.0 == "interfaceName" }?.1 == .string("wlp2s0"))
        #expect(network.first { $0.0 == "connection" }?.1 == .string("Home"))
        #expect(network.first { $0.0 == "ssid" }?.1 == .string("Home \u{1B}[2J"))
        let lines = report.lines(style: .plain)
        #expect(lines.contains("network in use  wlp2s0, connection \"Home\", ssid \"Home \\e[2J\""))
        #expect(lines.contains("  network interface  rtnetlink"))
        #expect(lines.contains("  network connection NetworkManager"))
        let offline = StatusReport(
            status: SyncEnvironmentStatus(connectivity: .disconnected, monitoredParts: [.network]), interfaceName: nil,
            time: "T")
        #expect(offline.lines(style: .plain).contains("network in use  none"))
    }

    @Test func sourcesNameTheOriginOfEveryField() {
        let report = StatusReport(status: Self.linuxLike, interfaceName: "eth0", time: "T", sources: Self.sources)
        let lines = report.lines(style: .plain)
        #expect(lines.contains("  connected          rtnetlink"))
        #expect(lines.contains("  expensive          sysfs heuristic"))
        #expect(lines.contains("  metered            sysfs heuristic"))
        #expect(lines.contains("  low power mode     default (no source)"))
        // One line for the sources that share a note, and only the first note of each source.
        #expect(lines.contains("  note: NetworkManager, power daemons: no D-Bus connection (absent)"))
        #expect(!lines.contains { $0.contains("the same cause again") })
        #expect(lines.filter { $0.contains("no D-Bus connection") }.count == 1)
        guard case .object(let members) = report.json, let sources = members.first(where: { $0.0 == "sources" })?.1,
            case .object(let parts) = sources, case .object(let fields) = parts[0].1
        else {
            Issue.record("no sources object")
            return
        }
        #expect(fields.first { $0.0 == "connected" }?.1 == .string("rtnetlink"))
        #expect(fields.first { $0.0 == "battery" }?.1 == .string("sysfs power_supply"))
        #expect(fields.count == 13)
        #expect(fields.first { $0.0 == "network interface" }?.1 == .string("default (no source)"))
        #expect(fields.first { $0.0 == "metered" }?.1 == .string("sysfs heuristic"))
        #expect(fields.first { $0.0 == "roaming" }?.1 == .string("default (no source)"))
    }

    /// Each confidence as `status --json` writes it, and which of the two requirements holds.
    @Test(
        "metered in the JSON",
        arguments: [
            (MeteredConfidence.confirmedUnmetered, "confirmed-unmetered", true, true),
            (.guessedUnmetered, "guessed-unmetered", true, false), (.unknown, "unknown", true, false),
            (.guessedMetered, "guessed-metered", false, false), (.confirmedMetered, "confirmed-metered", false, false),
        ])
    func meteredInJSON(confidence: MeteredConfidence, word: String, unmetered: Bool, confirmed: Bool) {
        let status = SyncEnvironmentStatus(
            connectivity: .connected(via: .wifi, metered: confidence), monitoredParts: [.network])
        let json = StatusReport(status: status, interfaceName: "wlan0", time: "T").json
        #expect(json["network"]?["metered"] == .string(word))
        #expect(json["network"]?["expensive"] == .bool(!unmetered))
        guard case .array(let met) = json["met"] else {
            Issue.record("met is not an array")
            return
        }
        #expect(met.contains(.string("unmetered")) == unmetered)
        #expect(met.contains(.string("unmetered-confirmed")) == confirmed)
    }

    @Test func disconnectedHasNoInterfaceName() {
        let status = SyncEnvironmentStatus(monitoredParts: [.network])
        let json = StatusReport(status: status, interfaceName: "eth0", time: "T").json
        #expect(json["network"]?["interfaceName"] == JSONValue.null)
        #expect(json["network"]?["interface"] == .string("none"))
    }

    @Test func linesSayWhatIsNotMonitored() {
        let lines = StatusReport(status: Self.linuxLike, interfaceName: nil, time: "T").lines(style: .plain)
        #expect(lines.contains("account         not monitored, treated as met"))
        #expect(lines.contains("cloud drive     not monitored, treated as met"))
        #expect(lines.contains("battery         15% (low)"))
        #expect(lines.contains("metered         guessed-unmetered"))
        #expect(lines.contains("  unmetered           met"))
        #expect(lines.contains("  unmetered-confirmed unmet"))
        #expect(lines.contains("power           on battery"))
        #expect(lines.contains { $0.hasPrefix("interface       wired-ethernet (name unknown") })
        #expect(lines.contains("  external-power      unmet"))
        #expect(lines.contains("  account-ready       met (not monitored, treated as met)"))
        #expect(lines.contains("  sync-ready          met (account-ready not monitored, treated as met)"))
    }

    @Test func watchLineNamesTheInterfaceAndWhatIsUnmet() {
        let line = StatusReport(status: Self.linuxLike, interfaceName: "eth0", time: "T").watchLine(style: .plain)
        #expect(
            line
                == "T connected via wired-ethernet (eth0); on battery, battery 15% (low); "
                + "unmet: unmetered-confirmed, external-power, battery-not-low"
        )
    }

    @Test func pressureAndHeatRowsShowTheFiguresAndThresholds() {
        let status = SyncEnvironmentStatus(
            monitoredParts: [.resources],
            resources: ResourceStatus(
                isUnderPressure: true, pressure: PressureLevels(cpu: 61.5, io: 2, memory: 0),
                pressureThresholds: PressureThresholds(cpu: 60), isHot: false,
                thermal: ThermalReading(zone: "acpitz", celsius: 45, passiveCelsius: 95)))
        let report = StatusReport(status: status, interfaceName: nil, time: "T")
        let lines = report.lines(style: .plain)
        #expect(
            lines.contains(
                "pressure        high (cpu 61.50 %, io 2.00 %, memory 0.00 %; high at cpu 60.00 %, io 25.00 %, memory 10.00 %)"
            ))
        #expect(lines.contains("heat            not hot (acpitz 45.0 °C (passive 95.0 °C))"))
        #expect(lines.contains("  not-under-pressure  unmet"))
        #expect(report.json["resources"]?["pressure"]?["cpu"] == .double(61.5))
        #expect(report.json["resources"]?["pressureThresholds"]?["cpu"] == .double(60))
        #expect(report.json["resources"]?["thermal"]?["zone"] == .string("acpitz"))
        let unread = StatusReport(
            status: SyncEnvironmentStatus(monitoredParts: [.resources]), interfaceName: nil, time: "T")
        #expect(unread.heatText == "not hot (no thermal zone with a passive trip point)")
        #expect(unread.pressureText == "low (high at cpu 50.00 %, io 25.00 %, memory 10.00 %)")
    }

    @Test func colorsOnlyWhenAsked() {
        let colored = TerminalStyle(usesColor: true, isInteractive: true)
        #expect(colored.paint("met", .green) == "\u{1B}[32mmet\u{1B}[0m")
        #expect(TerminalStyle.plain.paint("met", .green) == "met")
    }

    /// Every field of every record from one source, so each fact with a source label is listed.
    static let everySource = StatusOrigins(
        connectivity: ConnectivityProvenance(
            isConnected: .rtnetlink, interface: .rtnetlink, isExpensive: .rtnetlink, isConstrained: .rtnetlink,
            reachability: .rtnetlink, isRoaming: .rtnetlink),
        power: PowerProvenance(
            isLowPowerModeEnabled: .sysfs, isOnExternalPower: .sysfs, batteryLevel: .sysfs, isDeviceIdle: .sysfs),
        storage: StorageProvenance(freeSpace: .statvfs),
        resources: ResourceProvenance(pressure: .psi, heat: .thermalZones))

    /// The JSON key of each part.
    static let partKeys: [(part: MonitoringOptions, key: String)] = [
        (.network, "network"), (.power, "power"), (.account, "account"), (.cloudDrive, "cloudDrive"),
        (.syncEvent, "syncEvent"), (.storage, "storage"), (.resources, "resources"),
    ]

    @Test(
        "every requirement of the table is in the JSON, the rows, the sources, the parser and the help",
        arguments: SyncRequirements.descriptors.map(\.name)
    )
    func everyDescriptorIsShown(name: String) throws {
        let descriptor = try #require(SyncRequirements.descriptors.first { $0.name == name })
        let field = descriptor.field
        let status = SyncEnvironmentStatus(
            connectivity: .connected(via: .cellular, isExpensive: true, isRoaming: true),
            power: PowerStatus(isOnExternalPower: false, batteryLevel: 0.5), account: .available)
        let report = StatusReport(status: status, interfaceName: "wwan0", time: "T", sources: Self.everySource)
        // The JSON: the fact under its key in its part's object, and the requirement in the lists.
        let partKey = try #require(Self.partKeys.first { $0.part == descriptor.part }?.key)
        let expected: JSONValue =
            switch field.reading(status) {
            case .flag(let flag): .bool(flag)
            case .word(let word): .string(word)
            }
        #expect(report.json[partKey]?[field.key] == expected)
        guard case .array(let rows)? = report.json["requirements"] else {
            Issue.record("requirements is not an array")
            return
        }
        #expect(rows.contains { $0["name"] == .string(name) })
        // The text: one row under its label while the part is monitored.
        let lines = report.lines(style: .plain)
        let row = field.label + String(repeating: " ", count: max(1, 16 - field.label.count))
        #expect(lines.filter { $0.hasPrefix(row) }.count == 1, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("  " + name + " ") })
        // The sources: its label when it has one.
        if let sourceLabel = field.sourceLabel {
            #expect(Self.everySource.fields.filter { $0.field == sourceLabel }.count == 1)
        }
        // The parser and the help.
        #expect(try RequirementListParser.parse(name, option: "--require") == descriptor.requirement)
        #expect(RequirementListParser.format(descriptor.requirement) == name)
        #expect(
            HelpText.requirementList().contains(name + " ") && HelpText.requirementList().contains(descriptor.meaning))
    }
}
