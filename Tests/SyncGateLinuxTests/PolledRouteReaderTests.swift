#if os(Linux)
    import Foundation
    import SyncGate
    import SyncGateLinux
    import SyncGateTesting
    import Testing

    /// A temporary procfs and sysfs root: `proc/net/route`, `proc/net/ipv6_route` and
    /// `sys/class/net/<name>/…`, removed when released.
    final class RouteTableFixture: Sendable {
        let root: String
        var procRoot: String { root + "/proc" }
        var sysfsRoot: String { root + "/sys" }

        /// One interface's sysfs entries.
        struct Interface: Sendable {
            var name: String
            var flags = "0x1003"
            /// `nil`: the file cannot be read, as while the interface is down.
            var carrier: String? = "1"
            var operstate = "up"
            /// Whether a `device` link exists (a bus device, not a virtual one).
            var hasDevice = true
            var isWireless = false
        }

        init() throws {
            root = NSTemporaryDirectory() + "syncgate-routes-" + UUID().uuidString
            try FileManager.default.createDirectory(atPath: root + "/proc/net", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: root + "/sys/class/net", withIntermediateDirectories: true)
        }

        deinit {
            try? FileManager.default.removeItem(atPath: root)
        }

        /// Writes `/proc/net/route` with the header and `lines`; `nil` removes the file.
        func setIPv4(_ lines: [String]?) throws {
            try write(
                procRoot + "/net/route",
                lines.map { ([DefaultRouteTableTests.header] + $0).joined(separator: "\n") + "\n" })
        }

        /// Writes `/proc/net/ipv6_route` with `lines`; `nil` removes the file.
        func setIPv6(_ lines: [String]?) throws {
            try write(procRoot + "/net/ipv6_route", lines.map { $0.joined(separator: "\n") + "\n" })
        }

        func add(_ interface: Interface, index: Int) throws {
            let directory = sysfsRoot + "/class/net/" + interface.name
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try write(directory + "/ifindex", "\(index)\n")
            try write(directory + "/flags", interface.flags + "\n")
            try write(directory + "/carrier", interface.carrier.map { $0 + "\n" })
            try write(directory + "/operstate", interface.operstate + "\n")
            try write(directory + "/type", "1\n")
            if interface.hasDevice {
                try FileManager.default.createDirectory(
                    atPath: directory + "/device", withIntermediateDirectories: true)
            }
            if interface.isWireless {
                try FileManager.default.createDirectory(
                    atPath: directory + "/wireless", withIntermediateDirectories: true)
            }
        }

        private func write(_ path: String, _ text: String?) throws {
            try? FileManager.default.removeItem(atPath: path)
            if let text { try Data(text.utf8).write(to: URL(fileURLWithPath: path)) }
        }
    }

    /// A routing table and interfaces, and what a reading must make of them.
    struct PolledRouteCase: Sendable, CustomTestStringConvertible {
        var name: String
        var ipv4: [String]?
        var ipv6: [String]? = nil
        var interfaces: [RouteTableFixture.Interface] = [
            .init(name: "eth0"), .init(name: "wlan0", hasDevice: true, isWireless: true),
        ]
        var connected: Bool
        var interface: ConnectionInterface = .none
        var interfaceName: String? = nil
        var problem: Bool = false

        var testDescription: String { name }
    }

    let polledRouteCases: [PolledRouteCase] = [
        PolledRouteCase(name: "no default route", ipv4: [], connected: false),
        PolledRouteCase(
            name: "a default route through a wired interface",
            ipv4: [DefaultRouteTableTests.ipv4("eth0", flags: "0003", metric: 100)],
            connected: true, interface: .wiredEthernet, interfaceName: "eth0"),
        PolledRouteCase(
            name: "the lower metric's interface, Wi-Fi",
            ipv4: [
                DefaultRouteTableTests.ipv4("eth0", flags: "0003", metric: 100),
                DefaultRouteTableTests.ipv4("wlan0", flags: "0003", metric: 50),
            ],
            connected: true, interface: .wifi, interfaceName: "wlan0"),
        PolledRouteCase(
            name: "a default route through an interface without carrier",
            ipv4: [DefaultRouteTableTests.ipv4("eth0", flags: "0003", metric: 100)],
            interfaces: [.init(name: "eth0", carrier: "0", operstate: "down")], connected: false),
        PolledRouteCase(
            name: "a default route through an interface that is down",
            ipv4: [DefaultRouteTableTests.ipv4("eth0", flags: "0003", metric: 100)],
            interfaces: [.init(name: "eth0", flags: "0x1002", carrier: nil, operstate: "down")], connected: false),
        PolledRouteCase(
            name: "a default route through an interface sysfs does not show",
            ipv4: [DefaultRouteTableTests.ipv4("eth9", flags: "0003", metric: 100)], connected: false),
        PolledRouteCase(
            name: "an IPv4 blackhole, and an IPv6 default route",
            ipv4: [DefaultRouteTableTests.ipv4("*", flags: "0001", metric: 0)],
            ipv6: [DefaultRouteTableTests.ipv6("eth0", flags: "00000003", metric: "00000400")],
            connected: true, interface: .wiredEthernet, interfaceName: "eth0"),
        PolledRouteCase(
            name: "an unreadable IPv4 table, and no IPv6 default route",
            ipv4: nil, ipv6: [DefaultRouteTableTests.ipv6("lo", flags: "00200200", metric: "ffffffff")],
            connected: false, problem: true),
    ]

    @Suite("PolledRouteReader: the routing tables read from /proc", .timeLimit(.minutes(1)))
    struct PolledRouteReaderTests {
        @Test("each table and set of interfaces reads as its expected status", arguments: polledRouteCases)
        func reading(_ example: PolledRouteCase) throws {
            let fixture = try RouteTableFixture()
            try fixture.setIPv4(example.ipv4)
            try fixture.setIPv6(example.ipv6)
            for (offset, interface) in example.interfaces.enumerated() { try fixture.add(interface, index: offset + 2) }
            let (status, problem) = PolledRouteReader.read(procRoot: fixture.procRoot, sysfsRoot: fixture.sysfsRoot)
            #expect(status.isConnected == example.connected)
            #expect(status.interface == example.interface)
            #expect(status.network.interfaceName == example.interfaceName)
            if example.problem {
                #expect(problem == "cannot read \(fixture.procRoot)/net/route: No such file or directory (errno 2)")
            } else {
                #expect(problem == nil)
            }
        }

        @Test("a route that appears is reported at the next reading, and one that goes at the one after")
        func followsChangesAtItsInterval() async throws {
            let fixture = try RouteTableFixture()
            try fixture.setIPv4([])
            try fixture.add(.init(name: "eth0"), index: 2)
            let clock = ManualClock()
            let reader = PolledRouteReader(
                interval: .seconds(1), lossConfirmation: .zero, procRoot: fixture.procRoot,
                sysfsRoot: fixture.sysfsRoot, clock: clock)
            defer { reader.stop() }
            var statuses = reader.broadcast.stream().makeAsyncIterator()
            #expect(await statuses.next()?.isConnected == false)

            try fixture.setIPv4([DefaultRouteTableTests.ipv4("eth0", flags: "0003", metric: 100)])
            await clock.waitForSleepers(1)
            // Not yet read: the status changes only when the interval has passed.
            #expect(reader.broadcast.value.isConnected == false)
            clock.advance(by: .seconds(1))
            let gained = await statuses.next()
            #expect(gained?.isConnected == true)
            #expect(gained?.network.interfaceName == "eth0")

            try fixture.setIPv4([])
            await clock.waitForSleepers(1)
            clock.advance(by: .seconds(1))
            #expect(await statuses.next()?.isConnected == false)
        }

        @Test("a loss is read again after the confirmation window and reported only if that reading still finds it")
        func lossesAreConfirmed() async throws {
            let fixture = try RouteTableFixture()
            let route = DefaultRouteTableTests.ipv4("eth0", flags: "0003", metric: 100)
            try fixture.setIPv4([route])
            try fixture.add(.init(name: "eth0"), index: 2)
            let clock = ManualClock()
            let reader = PolledRouteReader(
                interval: .seconds(1), lossConfirmation: .milliseconds(200), procRoot: fixture.procRoot,
                sysfsRoot: fixture.sysfsRoot, clock: clock)
            defer { reader.stop() }
            let published = LockedState<[Bool]>([])
            let token = reader.broadcast.addObserver { status in published.withLock { $0.append(status.isConnected) } }
            defer { reader.broadcast.removeObserver(token) }
            #expect(reader.broadcast.value.isConnected)

            // A flap: the route is gone at a reading and back before the confirmation.
            try fixture.setIPv4([])
            await clock.waitForSleepers(1)
            clock.advance(by: .seconds(1))
            // The reading found the loss and now waits for the window before reading again.
            await clock.waitForSleepers(1)
            #expect(reader.broadcast.value.isConnected)
            try fixture.setIPv4([route])
            clock.advance(by: .milliseconds(200))
            // The confirming reading found the route; the loop sleeps for its next interval.
            await clock.waitForSleepers(1)
            #expect(reader.broadcast.value.isConnected)
            #expect(!published.withLock { $0 }.contains(false))

            // A loss that lasts: reported once the window has passed, not before.
            var statuses = reader.broadcast.stream().makeAsyncIterator()
            #expect(await statuses.next()?.isConnected == true)
            try fixture.setIPv4([])
            clock.advance(by: .seconds(1))
            await clock.waitForSleepers(1)
            #expect(reader.broadcast.value.isConnected)
            clock.advance(by: .milliseconds(200))
            #expect(await statuses.next()?.isConnected == false)

            // A gain is reported at its reading, without the window.
            try fixture.setIPv4([route])
            await clock.waitForSleepers(1)
            clock.advance(by: .seconds(1))
            #expect(await statuses.next()?.isConnected == true)
        }

        @Test("stop, or releasing the reader, ends the readings", arguments: [false, true])
        func stopEndsTheReadings(byRelease: Bool) async throws {
            let fixture = try RouteTableFixture()
            try fixture.setIPv4([])
            let clock = ManualClock()
            var reader: PolledRouteReader? = PolledRouteReader(
                procRoot: fixture.procRoot, sysfsRoot: fixture.sysfsRoot, clock: clock)
            await clock.waitForSleepers(1)
            if byRelease {
                reader = nil
            } else {
                reader?.stop()
            }
            // The reading task's sleep is cancelled on this thread, at once; no other sleep is armed.
            #expect(clock.sleeperCount == 0)
            withExtendedLifetime(reader) {}
        }
    }
#endif
