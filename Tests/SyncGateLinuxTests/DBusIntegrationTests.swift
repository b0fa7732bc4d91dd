#if os(Linux)
    import Foundation
    import SyncGateTesting
    import SyncGateTestSupport
    import Testing

    @testable import SyncGateCore

    @testable import SyncGateLinux

    /// The observers against real peers: a private `dbus-daemon` with python-dbusmock's NetworkManager and
    /// power-profiles-daemon templates. Each test has its own bus. Skips without dbus-daemon or dbusmock
    /// unless SYNCGATE_REQUIRE_DBUS=1.
    @Suite(.startsProcesses, .enabled(if: DBusTestBus.isEnabled, DBusTestBus.skipComment), .timeLimit(.minutes(2)))
    struct DBusIntegrationTests {
        static let networkManager = "org.freedesktop.NetworkManager"

        /// The link as rtnetlink would report it: a wired Ethernet link, not expensive.
        static let wiredLink = ConnectivityStatus.connected(via: .wiredEthernet)

        func configuration(_ bus: DBusTestBus) -> DBusFollowerConfiguration {
            DBusFollowerConfiguration(
                address: bus.address, callTimeout: .seconds(10), initialWait: .seconds(10), setupTimeout: .seconds(30))
        }

        /// Starts the NetworkManager mock and waits until it owns its name.
        func startNetworkManager(
            _ bus: DBusTestBus, _ client: DBusTestClient, metered: Int = 2, type: String = "802-11-wireless"
        ) async throws {
            try bus.startMock(
                "nm", template: "nm_full.py",
                parameters: #"{"Metered": \#(metered), "PrimaryConnectionType": "\#(type)"}"#)
            try await client.waitForOwner(of: Self.networkManager)
        }

        @Test func meteredFlips() async throws {
            let bus = try DBusTestBus()
            let client = try DBusTestClient(address: bus.address)
            try await startNetworkManager(bus, client, metered: 2)
            let observer = ConnectivityObserver(
                linkStatus: StatusBroadcast(Self.wiredLink), networkManager: configuration(bus))
            #expect(observer.status == .connected(via: .wifi, reachability: .internet))
            #expect(observer.provenance.isExpensive == .networkManager)
            #expect(observer.provenance.interface == .networkManager)

            #expect(observer.status.metered == .confirmedUnmetered)
            let steps: [(UInt32, MeteredConfidence)] = [
                (1, .confirmedMetered), (4, .guessedUnmetered), (3, .guessedMetered), (2, .confirmedUnmetered),
                (1, .confirmedMetered),
            ]
            for (metered, confidence) in steps {
                try await client.setNetworkManager("Metered", .uint32(metered))
                let status = try await awaitValue(observer.statusStream, "Metered \(metered)") {
                    $0.metered == confidence
                }
                #expect(status == .connected(via: .wifi, metered: confidence, reachability: .internet))
            }
            // UNKNOWN: no verdict, so the kind rule applies (Wi-Fi is not expensive), as a guess.
            try await client.setNetworkManager("Metered", .uint32(0))
            _ = try await awaitValue(observer.statusStream, "Metered unknown") { $0.metered == .guessedUnmetered }
            #expect(observer.provenance.isExpensive == StatusOrigin("NetworkManager connection type"))
        }

        @Test func captivePortalAndBack() async throws {
            let bus = try DBusTestBus()
            let client = try DBusTestClient(address: bus.address)
            try await startNetworkManager(bus, client)
            let observer = ConnectivityObserver(
                linkStatus: StatusBroadcast(Self.wiredLink), networkManager: configuration(bus))
            #expect(observer.status.reachability == .internet)
            let environment = SyncEnvironment(connectivity: observer)
            #expect(environment.status.satisfies(.validatedInternet))

            let steps: [(UInt32, ConnectivityReachability)] = [
                (2, .captivePortal), (4, .internet), (3, .limited), (1, .local), (0, .unknown), (4, .internet),
            ]
            for (connectivity, reachability) in steps {
                try await client.call(
                    Self.networkManager, "/org/freedesktop", "org.freedesktop.DBus.Mock", "SetConnectivity",
                    [.uint32(connectivity)])
                let status = try await awaitValue(observer.statusStream, "Connectivity \(connectivity)") {
                    $0.reachability == reachability
                }
                #expect(status.isConnected)
                let validated = reachability == .internet || reachability == .unknown
                let combined = try await awaitValue(environment.statusStream, "environment \(reachability)") {
                    $0.connectivity.reachability == reachability
                }
                #expect(combined.satisfies(.validatedInternet) == validated)
                #expect(combined.satisfies(.network))
            }
        }

        @Test func primaryConnectionWifiToModem() async throws {
            let bus = try DBusTestBus()
            let client = try DBusTestClient(address: bus.address)
            try await startNetworkManager(bus, client, metered: 4)
            let observer = ConnectivityObserver(
                linkStatus: StatusBroadcast(Self.wiredLink), networkManager: configuration(bus))
            #expect(observer.status.interface == .wifi)

            // NetworkManager guesses a modem is metered (GUESS_YES) when the primary connection moves to it.
            try await client.setNetworkManager("PrimaryConnectionType", .string("gsm"))
            try await client.setNetworkManager("Metered", .uint32(3))
            let modem = try await awaitValue(observer.statusStream, "modem") {
                $0.interface == .cellular && $0.isExpensive
            }
            #expect(modem == .connected(via: .cellular, metered: .guessedMetered, reachability: .internet))

            try await client.setNetworkManager("PrimaryConnectionType", .string("802-11-wireless"))
            try await client.setNetworkManager("Metered", .uint32(4))
            _ = try await awaitValue(observer.statusStream, "Wi-Fi again") { $0.interface == .wifi && !$0.isExpensive }

            // No primary connection: the heuristic's interface kind comes back.
            try await client.setNetworkManager("PrimaryConnectionType", .string(""))
            _ = try await awaitValue(observer.statusStream, "no primary") { $0.interface == .wiredEthernet }
            #expect(observer.provenance.interface == .sysfsHeuristic)
        }

        @Test func primaryDeviceTypeIsLookedUp() async throws {
            let bus = try DBusTestBus()
            let client = try DBusTestClient(address: bus.address)
            try await startNetworkManager(bus, client, type: "vpn")
            let observer = ConnectivityObserver(
                linkStatus: StatusBroadcast(Self.wiredLink), networkManager: configuration(bus))
            #expect(observer.status.interface == .other)  // a connection type SyncGate does not map
            let mock = "org.freedesktop.DBus.Mock"
            let device = try await client.call(
                Self.networkManager, "/org/freedesktop", mock, "AddWiFiDevice",
                [.string("wlan0"), .string("wlan0"), .uint32(100)])
            let devicePath = try #require(device.first?.string)
            let activePath = "/org/freedesktop/NetworkManager/ActiveConnection/Office"
            try await client.call(
                Self.networkManager, "/org/freedesktop", mock, "AddObject",
                [
                    .string(activePath), .string("org.freedesktop.NetworkManager.Connection.Active"),
                    .properties(["Devices": .array(.objectPath, [.objectPath(devicePath)])]),
                    .array(.structure([.string, .string, .string, .string]), []),
                ])
            #expect(devicePath.hasPrefix("/org/freedesktop/NetworkManager/Devices/"))
            try await client.setNetworkManager("PrimaryConnectionType", .string("tun"))
            try await client.setNetworkManager("PrimaryConnection", .objectPath(activePath))
            _ = try await awaitValue(observer.statusStream, "Wi-Fi from the device type") { $0.interface == .wifi }
        }

        @Test func serviceStopsAndReturns() async throws {
            let bus = try DBusTestBus()
            let client = try DBusTestClient(address: bus.address)
            try await startNetworkManager(bus, client, metered: 1)
            let link = StatusBroadcast(Self.wiredLink)
            let observer = ConnectivityObserver(linkStatus: link, networkManager: configuration(bus))
            #expect(observer.status == .connected(via: .wifi, isExpensive: true, reachability: .internet))

            bus.stopMock("nm")
            let fallback = try await awaitValue(observer.statusStream, "heuristic after NetworkManager left") {
                $0 == Self.wiredLink
            }
            #expect(fallback.reachability == .unknown)
            #expect(observer.provenance.isExpensive == .sysfsHeuristic)
            #expect(observer.provenance.notes.contains { $0.contains("is not available") })

            // Link changes while NetworkManager is away are not lost.
            link.send(.connected(via: .cellular, isExpensive: true))
            _ = try await awaitValue(observer.statusStream, "link change while absent") {
                $0 == .connected(via: .cellular, isExpensive: true)
            }
            link.send(Self.wiredLink)
            _ = try await awaitValue(observer.statusStream, "link back") { $0 == Self.wiredLink }
            link.send(.disconnected)
            _ = try await awaitValue(observer.statusStream, "link down") { $0 == .disconnected }
            link.send(Self.wiredLink)

            try await startNetworkManager(bus, client, metered: 3)
            let back = try await awaitValue(observer.statusStream, "NetworkManager back") {
                $0.reachability == .internet
            }
            #expect(back == .connected(via: .wifi, metered: .guessedMetered, reachability: .internet))
            #expect(observer.provenance.isExpensive == .networkManager)
        }

        @Test(arguments: ["legacy", "current"])
        func powerSaverOnAndOff(busName: String) async throws {
            let bus = try DBusTestBus()
            let client = try DBusTestClient(address: bus.address)
            let (name, path) =
                busName == "legacy"
                ? ("net.hadess.PowerProfiles", "/net/hadess/PowerProfiles")
                : ("org.freedesktop.UPower.PowerProfiles", "/org/freedesktop/UPower/PowerProfiles")
            try bus.startMock("ppd", template: busName == "legacy" ? "power_profiles_daemon" : "ppd_current.py")
            try await client.waitForOwner(of: name)
            let observer = PowerObserver(
                sysfsRoot: bus.directory + "/no-sysfs", clock: ContinuousClock(), rereadInterval: nil,
                listensForUEvents: false,
                dbus: configuration(bus))
            #expect(observer.status == .unrestricted)
            #expect(observer.provenance.isLowPowerModeEnabled == .powerProfiles(busName: name))

            for profile in ["power-saver", "balanced", "performance", "power-saver"] {
                try await client.set(name, path, name, "ActiveProfile", .string(profile))
                let status = try await awaitValue(observer.statusStream, profile) {
                    $0.isLowPowerModeEnabled == (profile == "power-saver")
                }
                #expect(status.isOnExternalPower)
            }
            // The daemon goes away while in power-saver: Low Power Mode falls back to off.
            bus.stopMock("ppd")
            _ = try await awaitValue(observer.statusStream, "daemon gone") { !$0.isLowPowerModeEnabled }
            #expect(observer.provenance.isLowPowerModeEnabled == .defaultValue)
        }

        @Test func upowerOnBatteryWhereSysfsHasNothing() async throws {
            let bus = try DBusTestBus()
            let client = try DBusTestClient(address: bus.address)
            try bus.startMock("upower", template: "upower", parameters: #"{"OnBattery": true}"#)
            try await client.waitForOwner(of: "org.freedesktop.UPower")
            let observer = PowerObserver(
                sysfsRoot: bus.directory + "/no-sysfs", clock: ContinuousClock(), rereadInterval: nil,
                listensForUEvents: false, dbus: configuration(bus))
            #expect(!observer.status.isOnExternalPower)
            #expect(observer.provenance.isOnExternalPower == .upower)
            try await client.set(
                "org.freedesktop.UPower", "/org/freedesktop/UPower", "org.freedesktop.UPower", "OnBattery",
                .boolean(false))
            _ = try await awaitValue(observer.statusStream, "on mains") { $0.isOnExternalPower }
        }
    }
#endif
