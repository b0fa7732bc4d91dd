import Testing

@testable import SyncGateCore

@testable import SyncGateLinux

/// NetworkManager's states to SyncGate's values, and the merge with the rtnetlink status.
@Suite(.timeLimit(.minutes(1)))
struct NetworkManagerMappingTests {
    /// NM_METERED: UNKNOWN 0, YES 1, NO 2, GUESS_YES 3, GUESS_NO 4; anything else is no verdict.
    @Test(
        "Metered",
        arguments: [
            (UInt32?.none, MeteredConfidence?.none), (0, nil), (1, .confirmedMetered), (2, .confirmedUnmetered),
            (3, .guessedMetered), (4, .guessedUnmetered), (5, nil), (9, nil), (UInt32.max, nil),
        ] as [(UInt32?, MeteredConfidence?)])
    func metered(value: UInt32?, confidence: MeteredConfidence?) {
        #expect(NetworkManagerMapping.meteredConfidence(metered: value) == confidence)
    }

    @Test(
        "Connectivity",
        arguments: [
            (UInt32?.none, ConnectivityReachability.unknown), (0, .unknown), (1, .local), (2, .captivePortal),
            (3, .limited), (4, .internet), (7, .unknown),
        ])
    func connectivity(value: UInt32?, reachability: ConnectivityReachability) {
        #expect(NetworkManagerMapping.reachability(connectivity: value) == reachability)
    }

    @Test(
        "primary connection kind",
        arguments: [
            ("802-11-wireless", UInt32?.none, LinuxInterfaceKind?.some(.wifi)),
            ("802-3-ethernet", nil, .wiredEthernet), ("gsm", nil, .cellular), ("cdma", nil, .cellular),
            ("bluetooth", nil, .bluetooth), ("vpn", 2, .wifi), ("tun", 1, .wiredEthernet), ("bond", 8, .cellular),
            ("wireguard", 5, .bluetooth), ("bridge", 13, .other), ("vpn", nil, .other), ("", nil, nil),
            ("", 2, .wifi), ("gsm", 2, .cellular),
        ] as [(String, UInt32?, LinuxInterfaceKind?)])
    func kind(connectionType: String, deviceType: UInt32?, kind: LinuxInterfaceKind?) {
        #expect(NetworkManagerMapping.kind(connectionType: connectionType, deviceType: deviceType) == kind)
    }

    /// The links as the sysfs heuristic reports them: its cost verdicts are guesses.
    static let wired = LinuxInterfaceKind.wiredEthernet.connectedStatus
    static let cellular = LinuxInterfaceKind.cellular.connectedStatus

    @Test(
        "merge",
        arguments: [
            // Without NetworkManager the link status passes through.
            (wired, NetworkManagerFacts?.none, wired),
            (cellular, nil, cellular),
            // NetworkManager's verdicts win, with their confidence; rtnetlink decides "connected".
            (
                wired, NetworkManagerFacts(metered: 1, connectivity: 4, primaryConnectionType: "802-11-wireless"),
                .connected(via: .wifi, metered: .confirmedMetered, reachability: .internet)
            ),
            (
                cellular, NetworkManagerFacts(metered: 4, connectivity: 2, primaryConnectionType: "gsm"),
                .connected(via: .cellular, metered: .guessedUnmetered, reachability: .captivePortal)
            ),
            (
                cellular, NetworkManagerFacts(metered: 2, connectivity: 4, primaryConnectionType: "gsm"),
                .connected(via: .cellular, metered: .confirmedUnmetered, reachability: .internet)
            ),
            (
                wired, NetworkManagerFacts(metered: 3, connectivity: 4, primaryConnectionType: "802-3-ethernet"),
                .connected(via: .wiredEthernet, metered: .guessedMetered, reachability: .internet)
            ),
            (ConnectivityStatus.disconnected, NetworkManagerFacts(metered: 1, connectivity: 4), .disconnected),
            // Metered unknown: the kind rule on NetworkManager's kind, else the link's heuristic; both guesses.
            (
                wired, NetworkManagerFacts(metered: 0, connectivity: 3, primaryConnectionType: "bluetooth"),
                .connected(via: .other, metered: .guessedMetered, reachability: .limited)
            ),
            (
                cellular, NetworkManagerFacts(metered: 0, connectivity: 4, primaryConnectionType: "802-11-wireless"),
                .connected(via: .wifi, metered: .guessedUnmetered, reachability: .internet)
            ),
            (cellular, NetworkManagerFacts(metered: 0, connectivity: 0), cellular),
            (wired, NetworkManagerFacts(metered: 7, connectivity: 0), wired),
            // No primary connection: the link's interface.
            (
                wired, NetworkManagerFacts(metered: 2, connectivity: 1, primaryConnectionType: ""),
                .connected(via: .wiredEthernet, metered: .confirmedUnmetered, reachability: .local)
            ),
        ] as [(ConnectivityStatus, NetworkManagerFacts?, ConnectivityStatus)])
    func merge(link: ConnectivityStatus, facts: NetworkManagerFacts?, expected: ConnectivityStatus) {
        #expect(NetworkManagerMapping.merge(link: link, networkManager: facts).status == expected)
    }

    @Test func provenance() {
        let none = NetworkManagerMapping.merge(link: Self.wired, networkManager: nil).provenance
        #expect(none.isConnected == .rtnetlink)
        #expect(none.interface == .sysfsHeuristic)
        #expect(none.isExpensive == .sysfsHeuristic)
        #expect(none.reachability == .defaultValue)
        let full = NetworkManagerMapping.merge(
            link: Self.wired,
            networkManager: NetworkManagerFacts(metered: 1, connectivity: 4, primaryConnectionType: "gsm")
        ).provenance
        #expect(full.interface == .networkManager)
        #expect(full.isExpensive == .networkManager)
        #expect(full.reachability == .networkManager)
        #expect(
            full.description
                == "connected: rtnetlink; interface: NetworkManager; expensive: NetworkManager; "
                + "constrained: default (no source); reachability: NetworkManager; roaming: default (no source); "
                + "network interface: rtnetlink; network connection: NetworkManager")
    }

    @Test("the network in use: the link's name, NetworkManager's connection Id and SSID; none while disconnected")
    func networkInUse() {
        let link = LinuxInterfaceKind.wifi.connectedStatus.with(network: SyncNetwork(interfaceName: "wlp2s0"))
        let facts = NetworkManagerFacts(
            connectivity: 4, primaryConnection: "/a/1", primaryConnectionType: "802-11-wireless",
            primaryConnectionID: "Home", ssid: "Home 5G")
        let merged = NetworkManagerMapping.merge(link: link, networkManager: facts)
        #expect(merged.status.network == SyncNetwork(interfaceName: "wlp2s0", connectionID: "Home", ssid: "Home 5G"))
        #expect(merged.provenance.networkInterface == .rtnetlink)
        #expect(merged.provenance.networkConnection == .networkManager)
        var unnamed = facts
        unnamed.primaryConnectionID = ""
        unnamed.ssid = nil
        #expect(
            NetworkManagerMapping.merge(link: link, networkManager: unnamed).status.network
                == SyncNetwork(interfaceName: "wlp2s0"))
        let alone = NetworkManagerMapping.merge(link: link, networkManager: nil)
        #expect(alone.status.network == SyncNetwork(interfaceName: "wlp2s0"))
        #expect(alone.provenance.networkConnection == .defaultValue)
        let offline = NetworkManagerMapping.merge(link: .disconnected, networkManager: facts)
        #expect(offline.status.network == .unknown)
    }

    @Test func factsFromProperties() {
        let facts = NetworkManagerFacts(properties: [
            "Metered": .uint32(3), "Connectivity": .uint32(2), "State": .uint32(70),
            "PrimaryConnection": .objectPath("/c/1"), "PrimaryConnectionType": .string("gsm"), "Other": .boolean(true),
        ])
        #expect(
            facts
                == NetworkManagerFacts(
                    metered: 3, connectivity: 2, state: 70, primaryConnection: "/c/1", primaryConnectionType: "gsm"))
        let wrong = NetworkManagerFacts(properties: ["Metered": .string("yes"), "Connectivity": .int32(4)])
        #expect(wrong.metered == nil)
        #expect(wrong.connectivity == nil)
        #expect(wrong.problems.count == 2)
        #expect(wrong.problems.first?.contains("Metered has type s (value \"yes\"), expected u") == true)
    }

    @Test(
        "power merge",
        arguments: [
            (PowerStatus(), false, PowerDBusFacts.none, PowerStatus()),
            (
                PowerStatus(), false, PowerDBusFacts(activeProfile: "power-saver", profilesBusName: "x"),
                PowerStatus(isLowPowerModeEnabled: true)
            ),
            (PowerStatus(), false, PowerDBusFacts(activeProfile: "balanced", profilesBusName: "x"), PowerStatus()),
            // UPower decides external power only where sysfs has no supply.
            (PowerStatus(), false, PowerDBusFacts(onBattery: true), PowerStatus(isOnExternalPower: false)),
            (
                PowerStatus(isOnExternalPower: true, batteryLevel: 0.5), true, PowerDBusFacts(onBattery: true),
                PowerStatus(isOnExternalPower: true, batteryLevel: 0.5)
            ),
            // systemd-logind's IdleHint decides idleness; without logind the device counts as idle.
            (PowerStatus(), true, PowerDBusFacts(idleHint: false), PowerStatus(isDeviceIdle: false)),
            (PowerStatus(), true, PowerDBusFacts(idleHint: true), PowerStatus(isDeviceIdle: true)),
            (PowerStatus(isDeviceIdle: false), true, PowerDBusFacts.none, PowerStatus(isDeviceIdle: true)),
        ] as [(PowerStatus, Bool, PowerDBusFacts, PowerStatus)])
    func powerMerge(sysfs: PowerStatus, hasSupplies: Bool, facts: PowerDBusFacts, expected: PowerStatus) {
        let (status, provenance) = PowerMapping.merge(sysfs: sysfs, sysfsHasSupplies: hasSupplies, dbus: facts)
        #expect(status == expected)
        #expect(provenance.isDeviceIdle == (facts.idleHint == nil ? .defaultValue : .logind))
    }
}
