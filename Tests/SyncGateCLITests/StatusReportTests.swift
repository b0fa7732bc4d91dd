import SyncGate
import SyncGateCLI
import Testing

struct StatusReportTests {
    static let linuxLike = SyncEnvironmentStatus(
        connectivity: .connected(via: .wiredEthernet),
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
                "schemaVersion", "time", "network", "power", "account", "cloudDrive", "syncEvent", "conditions",
                "requirements", "presets", "met", "treatedAsMet",
            ])
        #expect(json["schemaVersion"] == .int(1))
        #expect(
            json["network"]
                == .object([
                    ("monitored", .bool(true)), ("connected", .bool(true)), ("interface", .string("wired-ethernet")),
                    ("interfaceName", .string("eth0")), ("expensive", .bool(false)), ("constrained", .bool(false)),
                ]))
        #expect(
            json["power"]
                == .object([
                    ("monitored", .bool(true)), ("externalPower", .bool(false)), ("batteryLevel", .double(0.15)),
                    ("batteryLow", .bool(true)), ("lowPowerMode", .bool(false)),
                ]))
        #expect(json["account"] == .object([("monitored", .bool(false)), ("status", .string("could-not-determine"))]))
        #expect(
            json["met"]
                == .array(
                    ["network", "unmetered", "unconstrained", "not-low-power", "account-ready", "cloud-drive"].map {
                        .string($0)
                    }))
        #expect(json["treatedAsMet"] == .array([.string("account-ready"), .string("cloud-drive")]))
        guard case .array(let requirements) = json["requirements"] else {
            Issue.record("requirements is not an array")
            return
        }
        #expect(requirements.count == SyncRequirements.members.count)
        #expect(
            requirements[4]
                == .object([("name", .string("external-power")), ("holds", .bool(false)), ("monitored", .bool(true))]))
        #expect(
            requirements[6]
                == .object([("name", .string("account-ready")), ("holds", .bool(true)), ("monitored", .bool(false))]))
        guard case .array(let presets) = json["presets"] else {
            Issue.record("presets is not an array")
            return
        }
        #expect(
            presets[0]
                == .object([
                    ("name", .string("sync-ready")), ("holds", .bool(true)),
                    ("treatedAsMet", .array([.string("account-ready")])),
                ]))
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
        #expect(lines.contains("power           on battery"))
        #expect(lines.contains { $0.hasPrefix("interface       wired-ethernet (name unknown") })
        #expect(lines.contains("  external-power     unmet"))
        #expect(lines.contains("  account-ready      met (not monitored, treated as met)"))
        #expect(lines.contains("  sync-ready         met (account-ready not monitored, treated as met)"))
    }

    @Test func watchLineNamesTheInterfaceAndWhatIsUnmet() {
        let line = StatusReport(status: Self.linuxLike, interfaceName: "eth0", time: "T").watchLine(style: .plain)
        #expect(
            line
                == "T connected via wired-ethernet (eth0); on battery, battery 15% (low); unmet: external-power, battery-not-low"
        )
    }

    @Test func colorsOnlyWhenAsked() {
        let colored = TerminalStyle(usesColor: true, isInteractive: true)
        #expect(colored.paint("met", .green) == "\u{1B}[32mmet\u{1B}[0m")
        #expect(TerminalStyle.plain.paint("met", .green) == "met")
    }
}

struct TerminalStyleTests {
    @Test(arguments: [
        (true, [String: String](), true, true),
        (false, [:], false, false),
        (true, ["NO_COLOR": "1"], false, true),
        (true, ["NO_COLOR": ""], true, true),
        (true, ["TERM": "dumb"], false, false),
        (false, ["TERM": "xterm-256color"], false, false),
        (true, ["TERM": "xterm-256color", "NO_COLOR": "yes"], false, true),
    ])
    func decidesColorAndRedrawing(isTerminal: Bool, environment: [String: String], color: Bool, interactive: Bool) {
        let style = TerminalStyle(isTerminal: isTerminal, environment: environment)
        #expect(style.usesColor == color)
        #expect(style.isInteractive == interactive)
    }
}

struct JSONValueTests {
    @Test func serializesCompactlyAndPrettily() {
        let value = JSONValue.object([
            ("b", .array([.int(1), .double(0.5), .null])), ("a", .string("q\"\\\n\u{1}é")), ("e", .object([])),
        ])
        #expect(value.compact == #"{"b":[1,0.5,null],"a":"q\"\\\n\u0001é","e":{}}"#)
        #expect(
            value.pretty
                == "{\n  \"b\": [\n    1,\n    0.5,\n    null\n  ],\n  \"a\": \"q\\\"\\\\\\n\\u0001é\",\n  \"e\": {}\n}"
        )
    }
}

struct DefaultRouteTableTests {
    static let ipv4 = """
        Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT
        wlan0\t00000000\t0101A8C0\t0003\t0\t0\t600\t00000000\t0\t0\t0
        eth0\t00000000\t010200C0\t0003\t0\t0\t100\t00000000\t0\t0\t0
        eth0\t000200C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0
        """

    @Test func picksTheLowestMetricDefaultRoute() {
        #expect(DefaultRouteTable.ipv4Interface(in: Self.ipv4) == "eth0")
    }

    @Test func ignoresRoutesThatAreNotDefaultOrNotUp() {
        let text = """
            Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT
            eth0\t000200C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0
            eth1\t00000000\t010200C0\t0002\t0\t0\t0\t00000000\t0\t0\t0
            """
        #expect(DefaultRouteTable.ipv4Interface(in: text) == nil)
        #expect(DefaultRouteTable.ipv4Interface(in: "") == nil)
    }

    @Test func readsIPv6DefaultRoutes() {
        let zeros = String(repeating: "0", count: 32)
        let text = """
            \(zeros) 00 \(zeros) 00 \(zeros) ffffffff 00000001 00000000 00200200 lo
            \(zeros) 00 \(zeros) 00 fe800000000000000000000000000001 00000400 00000001 00000000 00450003 wlan0
            \(zeros) 00 \(zeros) 00 fe800000000000000000000000000001 00000064 00000001 00000000 00450003 eth0
            fd000000000000000000000000000000 40 \(zeros) 00 \(zeros) 00000100 00000001 00000000 00000001 eth1
            """
        #expect(DefaultRouteTable.ipv6Interface(in: text) == "eth0")
    }
}

struct ChildExitStatusTests {
    @Test(arguments: [
        (Int32(0), ChildExitStatus.exited(0), Int32(0), "exited with status 0"),
        (7 << 8, .exited(7), 7, "exited with status 7"),
        (255 << 8, .exited(255), 255, "exited with status 255"),
        (15, .signaled(15), 143, "killed by signal 15 (SIGTERM)"),
        (9, .signaled(9), 137, "killed by signal 9 (SIGKILL)"),
        (2 | 0x80, .signaled(2), 130, "killed by signal 2 (SIGINT)"),
        (34, .signaled(34), 162, "killed by signal 34"),
    ])
    func decodesWaitStatuses(raw: Int32, status: ChildExitStatus, code: Int32, text: String) {
        let decoded = ChildExitStatus(waitStatus: raw)
        #expect(decoded == status)
        #expect(decoded.exitCode == code)
        #expect(decoded.description == text)
    }
}
