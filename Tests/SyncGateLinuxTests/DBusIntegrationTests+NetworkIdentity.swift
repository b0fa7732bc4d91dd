#if os(Linux)
    import Foundation
    import SyncGateTesting
    import SyncGateTestSupport
    import Testing

    @testable import SyncGateCore

    @testable import SyncGateLinux

    /// The network in use from NetworkManager (python-dbusmock's template): the primary connection's `Id`
    /// and its Wi-Fi device's active access point's SSID, merged with rtnetlink's interface name, and an
    /// allowed-networks list deciding on them.
    extension DBusIntegrationTests {
        static let mock = "org.freedesktop.DBus.Mock"
        /// The link as rtnetlink reports it: Wi-Fi through `wlan0`.
        static let wlan0Link = ConnectivityStatus.connected(via: .wifi).with(
            network: SyncNetwork(interfaceName: "wlan0"))

        /// A Wi-Fi device associated with an access point of `ssid`, and an active connection on it whose
        /// `Id` is `id`; returns the active connection's path.
        func addWiFiConnection(_ client: DBusTestClient, ssid: String, id: String) async throws -> String {
            let name = id.filter(\.isLetter)
            let device = try #require(
                try await client.call(
                    Self.networkManager, "/org/freedesktop", Self.mock, "AddWiFiDevice",
                    [.string(name), .string("wlan0"), .int32(100)]
                ).first?.string)
            let accessPoint = try #require(
                try await client.call(
                    Self.networkManager, "/org/freedesktop", Self.mock, "AddAccessPoint",
                    [
                        .string(device), .string(name), .string(ssid), .string("00:11:22:33:44:55"), .uint32(2),
                        .uint32(2412), .uint32(54_000), .byte(80), .uint32(0),
                    ]
                ).first?.string)
            let settings = try #require(
                try await client.call(
                    Self.networkManager, "/org/freedesktop", Self.mock, "AddWiFiConnection",
                    [.string(device), .string(name), .string(ssid), .string("")]
                ).first?.string)
            let active = try #require(
                try await client.call(
                    Self.networkManager, "/org/freedesktop", Self.mock, "AddActiveConnection",
                    [
                        .array(.string, [.string(device)]), .string(settings), .string(accessPoint),
                        .string(name + "Active"), .uint32(2),
                    ]
                ).first?.string)
            // The template's connection Id is the SSID; make it differ, as a renamed connection does.
            try await client.call(
                Self.networkManager, "/org/freedesktop", Self.mock, "SetProperty",
                [
                    .objectPath(active), .string("org.freedesktop.NetworkManager.Connection.Active"), .string("Id"),
                    .variant(.string(id)),
                ])
            // The template's Wi-Fi device has no ActiveAccessPoint property.
            try await client.call(
                Self.networkManager, device, Self.mock, "AddProperty",
                [
                    .string("org.freedesktop.NetworkManager.Device.Wireless"), .string("ActiveAccessPoint"),
                    .variant(.objectPath(accessPoint)),
                ])
            return active
        }

        @Test("the primary connection's Id and its access point's SSID join the link's name; a change follows")
        func connectionAndSSID() async throws {
            let bus = try DBusTestBus()
            let client = try DBusTestClient(address: bus.address)
            try bus.startMock("nm", template: "nm_full.py", parameters: #"{"Metered": 4}"#)
            try await client.waitForOwner(of: Self.networkManager)
            let home = try await addWiFiConnection(client, ssid: "Home", id: "Home Wi-Fi")
            let cafe = try await addWiFiConnection(client, ssid: "Caf\u{E9}", id: "Cafe")
            let observer = ConnectivityObserver(
                linkStatus: StatusBroadcast(Self.wlan0Link), networkManager: configuration(bus))
            let allowed = SyncNetworkAllowlist([.ssid("Home")])
            #expect(observer.status.network == SyncNetwork(interfaceName: "wlan0"))
            #expect(!allowed.matches(observer.status))

            try await client.setNetworkManager("PrimaryConnection", .objectPath(home))
            let atHome = try await awaitValue(observer.statusStream, "Home") { $0.network.ssid == "Home" }
            _ = try await awaitValue(observer.statusStream, "Home's Id") { $0.network.connectionID == "Home Wi-Fi" }
            #expect(atHome.network.interfaceName == "wlan0")
            #expect(allowed.matches(observer.status))
            #expect(SyncNetworkAllowlist([.connection("Home Wi-Fi")]).matches(observer.status))
            #expect(observer.provenance.networkConnection == .networkManager)
            #expect(observer.provenance.networkInterface == .rtnetlink)

            try await client.setNetworkManager("PrimaryConnection", .objectPath(cafe))
            let atCafe = try await awaitValue(observer.statusStream, "Cafe") {
                $0.network == SyncNetwork(interfaceName: "wlan0", connectionID: "Cafe", ssid: "Caf\u{E9}")
            }
            #expect(!allowed.matches(atCafe))

            // No primary connection: only rtnetlink's name is left.
            try await client.setNetworkManager("PrimaryConnection", .objectPath("/"))
            _ = try await awaitValue(observer.statusStream, "no primary") {
                $0.network == SyncNetwork(interfaceName: "wlan0")
            }
        }

        @Test("a wired primary connection has an Id and no SSID")
        func wiredHasNoSSID() async throws {
            let bus = try DBusTestBus()
            let client = try DBusTestClient(address: bus.address)
            try bus.startMock(
                "nm", template: "nm_full.py", parameters: #"{"Metered": 2, "PrimaryConnectionType": "802-3-ethernet"}"#)
            try await client.waitForOwner(of: Self.networkManager)
            let device = try #require(
                try await client.call(
                    Self.networkManager, "/org/freedesktop", Self.mock, "AddEthernetDevice",
                    [.string("eth0"), .string("eth0"), .int32(100)]
                ).first?.string)
            let active = "/org/freedesktop/NetworkManager/ActiveConnection/Office"
            try await client.call(
                Self.networkManager, "/org/freedesktop", Self.mock, "AddObject",
                [
                    .string(active), .string("org.freedesktop.NetworkManager.Connection.Active"),
                    .properties(["Devices": .array(.objectPath, [.objectPath(device)]), "Id": .string("Office")]),
                    .array(.structure([.string, .string, .string, .string]), []),
                ])
            let link = ConnectivityStatus.connected(via: .wiredEthernet).with(
                network: SyncNetwork(interfaceName: "eth0"))
            let observer = ConnectivityObserver(linkStatus: StatusBroadcast(link), networkManager: configuration(bus))
            try await client.setNetworkManager("PrimaryConnection", .objectPath(active))
            let office = try await awaitValue(observer.statusStream, "Office") { $0.network.connectionID == "Office" }
            #expect(office.network == SyncNetwork(interfaceName: "eth0", connectionID: "Office"))
            #expect(SyncNetworkAllowlist([.connection("Office"), .ssid("Home")]).matches(office))
            #expect(!SyncNetworkAllowlist([.ssid("Office")]).matches(office))
        }
    }
#endif
