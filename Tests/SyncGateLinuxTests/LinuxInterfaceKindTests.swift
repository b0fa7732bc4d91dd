#if os(Linux)
    import Foundation
    import Testing

    @testable import SyncGateCore

    @testable import SyncGateLinux

    /// Classification against sysfs fixture trees built at run time, one per kind of interface.
    @Suite(.timeLimit(.minutes(1)))
    struct LinuxInterfaceKindTests {
        struct Fixture: Sendable, CustomTestStringConvertible {
            var name: String
            /// Where the device directory lives below `devices/`.
            var devicePath: String
            var uevent: String
            var type: Int
            var deviceLink: String?
            var wireless = false
            var phy80211 = false
            var linkKind: String?
            var expected: LinuxInterfaceKind
            var testDescription: String { "\(name) → \(expected)" }
        }

        static let fixtures: [Fixture] = [
            Fixture(
                name: "wlp2s0",
                devicePath: "pci0000:00/0000:00:1c.0/0000:02:00.0/net/wlp2s0",
                uevent: "DEVTYPE=wlan\nINTERFACE=wlp2s0\nIFINDEX=3\n",
                type: 1,
                deviceLink: "../../../0000:02:00.0",
                wireless: true,
                phy80211: true,
                expected: .wifi
            ),
            Fixture(
                name: "wlan1",
                devicePath: "platform/soc/mmc1/net/wlan1",
                uevent: "INTERFACE=wlan1\nIFINDEX=4\n",
                type: 1,
                deviceLink: "../../../mmc1",
                phy80211: true,
                expected: .wifi
            ),
            Fixture(
                name: "wwan0",
                devicePath: "pci0000:00/0000:00:14.0/usb2/2-3/2-3:1.8/net/wwan0",
                uevent: "DEVTYPE=wwan\nINTERFACE=wwan0\nIFINDEX=5\n",
                type: 519,
                deviceLink: "../../../2-3:1.8",
                expected: .cellular
            ),
            Fixture(
                name: "wwp0s20u3i8",
                devicePath: "pci0000:00/0000:00:14.0/usb2/2-3/2-3:1.8/net/wwp0s20u3i8",
                uevent: "INTERFACE=wwp0s20u3i8\nIFINDEX=6\n",
                type: 519,
                deviceLink: "../../../2-3:1.8",
                expected: .cellular
            ),
            Fixture(
                name: "enp3s0",
                devicePath: "pci0000:00/0000:00:1c.4/0000:03:00.0/net/enp3s0",
                uevent: "INTERFACE=enp3s0\nIFINDEX=2\n",
                type: 1,
                deviceLink: "../../../0000:03:00.0",
                expected: .wiredEthernet
            ),
            Fixture(
                name: "enx00e04c680001",
                devicePath: "pci0000:00/0000:00:14.0/usb2/2-1/2-1:1.0/net/enx00e04c680001",
                uevent: "INTERFACE=enx00e04c680001\nIFINDEX=7\n",
                type: 1,
                deviceLink: "../../../2-1:1.0",
                expected: .wiredEthernet
            ),
            Fixture(
                name: "veth0",
                devicePath: "virtual/net/veth0",
                uevent: "INTERFACE=veth0\nIFINDEX=8\n",
                type: 1,
                linkKind: "veth",
                expected: .other
            ),
            Fixture(
                name: "br0",
                devicePath: "virtual/net/br0",
                uevent: "DEVTYPE=bridge\nINTERFACE=br0\nIFINDEX=9\n",
                type: 1,
                linkKind: "bridge",
                expected: .other
            ),
            Fixture(
                name: "bond0",
                devicePath: "virtual/net/bond0",
                uevent: "DEVTYPE=bond\nINTERFACE=bond0\nIFINDEX=10\n",
                type: 1,
                expected: .other
            ),
            Fixture(
                name: "tun0",
                devicePath: "virtual/net/tun0",
                uevent: "INTERFACE=tun0\nIFINDEX=11\n",
                type: 65534,
                linkKind: "tun",
                expected: .other
            ),
            Fixture(
                name: "wg0",
                devicePath: "virtual/net/wg0",
                uevent: "DEVTYPE=wireguard\nINTERFACE=wg0\nIFINDEX=12\n",
                type: 65534,
                linkKind: "wireguard",
                expected: .other
            ),
            Fixture(
                name: "ppp0",
                devicePath: "virtual/net/ppp0",
                uevent: "INTERFACE=ppp0\nIFINDEX=13\n",
                type: 512,
                expected: .other
            ),
            Fixture(
                name: "bnep0",
                devicePath: "pci0000:00/0000:00:14.0/usb1/1-7/1-7:1.0/bluetooth/hci0/net/bnep0",
                uevent: "DEVTYPE=bluetooth\nINTERFACE=bnep0\nIFINDEX=14\n",
                type: 1,
                deviceLink: "../../../hci0",
                expected: .bluetooth
            ),
        ]

        @Test(arguments: fixtures)
        func classifiesFixtureTree(_ fixture: Fixture) throws {
            let root = try Self.makeTree([fixture])
            defer { try? FileManager.default.removeItem(atPath: root) }
            let facts = SysfsInterfaceFacts.read(interface: fixture.name, sysfsRoot: root, linkKind: fixture.linkKind)
            #expect(facts.hardwareType == fixture.type)
            #expect(facts.isVirtual == fixture.devicePath.hasPrefix("virtual/"))
            #expect(facts.hasDeviceLink == (fixture.deviceLink != nil))
            let kind = LinuxInterfaceKind.classify(facts)
            #expect(kind == fixture.expected)
            #expect(kind.connectedStatus.isConstrained == false)
            #expect(
                kind.connectedStatus.isExpensive == (fixture.expected == .cellular || fixture.expected == .bluetooth))
        }

        @Test func publicValues() {
            // The kind rule only guesses the cost.
            #expect(LinuxInterfaceKind.wifi.connectedStatus == .connected(via: .wifi, metered: .guessedUnmetered))
            #expect(
                LinuxInterfaceKind.cellular.connectedStatus == .connected(via: .cellular, metered: .guessedMetered))
            #expect(
                LinuxInterfaceKind.wiredEthernet.connectedStatus
                    == .connected(via: .wiredEthernet, metered: .guessedUnmetered))
            #expect(LinuxInterfaceKind.bluetooth.connectedStatus == .connected(via: .other, metered: .guessedMetered))
            #expect(LinuxInterfaceKind.other.connectedStatus == .connected(via: .other, metered: .guessedUnmetered))
        }

        @Test func missingOrHostileNamesReadAsNoFacts() throws {
            let root = try Self.makeTree([])
            defer { try? FileManager.default.removeItem(atPath: root) }
            for name in ["", ".", "..", "../../etc", "absent0"] {
                let facts = SysfsInterfaceFacts.read(interface: name, sysfsRoot: root, hardwareType: 1)
                #expect(facts == SysfsInterfaceFacts(hardwareType: 1))
                #expect(LinuxInterfaceKind.classify(facts) == .other)
            }
        }

        @Test func aNameThatIsNotUTF8IsLookedUpByItsBytes() throws {
            let name: [UInt8] = [0xFF, UInt8(ascii: "z")]
            let fixture = try SysfsFixture(interfaces: [(name, "wlan"), (Array("\u{FFFD}z".utf8), nil)])
            defer { fixture.remove() }
            let facts = SysfsInterfaceFacts.read(interface: name, sysfsRoot: fixture.root, linkKind: "veth")
            #expect(facts.devType == "wlan")
            #expect(LinuxInterfaceKind.classify(facts) == .wifi)
            for hostile: [UInt8] in [[0x2E, 0x2E], [0xFF, 0x2F, 0x7A], [0xFF, 0, 0x7A]] {
                let none = SysfsInterfaceFacts.read(interface: hostile, sysfsRoot: fixture.root, hardwareType: 1)
                #expect(none == SysfsInterfaceFacts(hardwareType: 1))
            }
        }

        @Test func realLoopbackIsVirtual() {
            let facts = SysfsInterfaceFacts.read(interface: "lo", sysfsRoot: "/sys")
            #expect(facts.hardwareType == 772)
            #expect(facts.isVirtual)
            #expect(LinuxInterfaceKind.classify(facts) == .other)
        }

        /// Builds `<root>/devices/<devicePath>/…` and `<root>/class/net/<name>` symlinks, like sysfs.
        static func makeTree(_ fixtures: [Fixture]) throws -> String {
            let manager = FileManager.default
            let root = manager.temporaryDirectory.appendingPathComponent("syncgate-sysfs-\(UUID().uuidString)").path
            try manager.createDirectory(atPath: root + "/class/net", withIntermediateDirectories: true)
            for fixture in fixtures {
                let directory = root + "/devices/" + fixture.devicePath
                try manager.createDirectory(atPath: directory, withIntermediateDirectories: true)
                try fixture.uevent.write(toFile: directory + "/uevent", atomically: false, encoding: .utf8)
                try "\(fixture.type)\n".write(toFile: directory + "/type", atomically: false, encoding: .utf8)
                if fixture.wireless {
                    try manager.createDirectory(atPath: directory + "/wireless", withIntermediateDirectories: true)
                }
                if fixture.phy80211 {
                    try manager.createDirectory(
                        atPath: root + "/class/ieee80211/phy0", withIntermediateDirectories: true)
                    try manager.createSymbolicLink(
                        atPath: directory + "/phy80211",
                        withDestinationPath: "../../../../../class/ieee80211/phy0"
                    )
                }
                if let deviceLink = fixture.deviceLink {
                    try manager.createSymbolicLink(atPath: directory + "/device", withDestinationPath: deviceLink)
                }
                try manager.createSymbolicLink(
                    atPath: root + "/class/net/" + fixture.name,
                    withDestinationPath: "../../devices/" + fixture.devicePath
                )
            }
            return root
        }
    }
#endif
