#if os(Linux)
    import Foundation
    import SyncGate
    import SyncGateTesting
    import Testing

    private let batteryChange = uevent(
        "change@/devices/LNXSYSTM:00/LNXSYBUS:00/PNP0C0A:00/power_supply/BAT0",
        "ACTION=change", "SUBSYSTEM=power_supply", "POWER_SUPPLY_NAME=BAT0", "SEQNUM=10")
    private let acChange = uevent(
        "change@/devices/LNXSYSTM:00/LNXSYBUS:00/ACPI0003:00/power_supply/AC",
        "ACTION=change", "SUBSYSTEM=power_supply", "POWER_SUPPLY_NAME=AC", "SEQNUM=11")
    private let batteryRemove = uevent(
        "remove@/devices/LNXSYSTM:00/LNXSYBUS:00/PNP0C0A:00/power_supply/BAT0",
        "ACTION=remove", "SUBSYSTEM=power_supply", "SEQNUM=12")
    private let batteryAdd = uevent(
        "add@/devices/LNXSYSTM:00/LNXSYBUS:00/PNP0C0A:00/power_supply/BAT0",
        "ACTION=add", "SUBSYSTEM=power_supply", "SEQNUM=13")
    private let netAdd = uevent("add@/devices/virtual/net/veth0", "ACTION=add", "SUBSYSTEM=net", "SEQNUM=14")

    private let onAC: [PowerFixtureSupply] = [.mains(online: "1"), .battery(status: "Charging", capacity: "80")]
    private let onBattery80: [PowerFixtureSupply] = [
        .mains(online: "0"), .battery(status: "Discharging", capacity: "80"),
    ]

    /// An observer of a fixture tree, with no kernel socket and a manual clock.
    private func makeObserver(
        _ fixture: PowerSupplyFixture,
        clock: ManualClock = ManualClock(),
        rereadInterval: Duration? = .seconds(60)
    ) -> PowerObserver {
        PowerObserver(sysfsRoot: fixture.root, clock: clock, rereadInterval: rereadInterval, listensForUEvents: false)
    }

    @Suite("PowerObserver on fixture trees", .timeLimit(.minutes(1)))
    struct PowerObserverTests {
        @Test("the initial status is read before init returns")
        func initialStatus() throws {
            let laptop = try PowerSupplyFixture(onBattery80)
            #expect(makeObserver(laptop).status == PowerStatus(isOnExternalPower: false, batteryLevel: 0.8))
            let desktop = try PowerSupplyFixture()
            #expect(makeObserver(desktop).status == .unrestricted)
        }

        @Test("a power_supply uevent re-reads sysfs and the change reaches the stream")
        func ueventUpdates() async throws {
            let fixture = try PowerSupplyFixture(onAC)
            let observer = makeObserver(fixture)
            var statuses = observer.statusStream.makeAsyncIterator()
            #expect(await statuses.next() == PowerStatus(isOnExternalPower: true, batteryLevel: 0.8))

            try fixture.set("AC", "online", "0")
            try fixture.set("BAT0", "status", "Discharging")
            #expect(observer.handleUEvent(acChange))
            #expect(await statuses.next() == PowerStatus(isOnExternalPower: false, batteryLevel: 0.8))

            try fixture.set("BAT0", "capacity", "10")
            #expect(observer.handleUEvent(batteryChange))
            let low = await statuses.next()
            #expect(low == PowerStatus(isOnExternalPower: false, batteryLevel: 0.1))
            #expect(low?.isBatteryLow == true)
        }

        @Test("uevents of other subsystems, libudev messages and garbage do not re-read")
        func ignoredUEvents() async throws {
            let fixture = try PowerSupplyFixture(onAC)
            let observer = makeObserver(fixture)
            try fixture.set("AC", "online", "0")
            try fixture.set("BAT0", "status", "Discharging")
            let libudev =
                Array("libudev".utf8) + [0, 0xFE, 0xED, 0xCA, 0xFE] + uevent("ACTION=change", "SUBSYSTEM=power_supply")
            for datagram in [netAdd, libudev, [], [0xFF, 0x00, 0x40], Array("SUBSYSTEM=power_supply".utf8)] {
                #expect(!observer.handleUEvent(datagram))
            }
            #expect(observer.status.isOnExternalPower)

            // The change was in sysfs all along; the next power_supply event picks it up.
            #expect(observer.handleUEvent(batteryChange))
            #expect(!observer.status.isOnExternalPower)
            var statuses = observer.statusStream.makeAsyncIterator()
            #expect(await statuses.next() == PowerStatus(isOnExternalPower: false, batteryLevel: 0.8))
        }

        @Test("a lost event (receive-buffer overflow) re-reads sysfs")
        func overflow() async throws {
            let fixture = try PowerSupplyFixture(onAC)
            let observer = makeObserver(fixture)
            var statuses = observer.statusStream.makeAsyncIterator()
            #expect(await statuses.next()?.isOnExternalPower == true)
            try fixture.set("AC", "online", "0")
            try fixture.set("BAT0", "status", "Discharging")
            observer.handleUEventOverflow()
            #expect(await statuses.next()?.isOnExternalPower == false)
        }

        @Test("a battery taken out and put back, with a mouse battery that never counts")
        func batteryRemovedAndAdded() async throws {
            let mouse = PowerFixtureSupply(
                "hidpp_battery_0", ["type": "Battery", "scope": "Device", "status": "Discharging", "capacity": "3"])
            let fixture = try PowerSupplyFixture([mouse, .battery(status: "Discharging", capacity: "50")])
            let observer = makeObserver(fixture)
            var statuses = observer.statusStream.makeAsyncIterator()
            #expect(await statuses.next() == PowerStatus(isOnExternalPower: false, batteryLevel: 0.5))

            try fixture.remove("BAT0")
            #expect(observer.handleUEvent(batteryRemove))
            #expect(await statuses.next() == .unrestricted)

            try fixture.add(.battery(status: "Discharging", capacity: "49"))
            #expect(observer.handleUEvent(batteryAdd))
            #expect(await statuses.next() == PowerStatus(isOnExternalPower: false, batteryLevel: 0.49))
        }

        @Test("while a battery exists, the slow re-read picks up a change that came without a uevent")
        func slowReread() async throws {
            let clock = ManualClock()
            let fixture = try PowerSupplyFixture(onBattery80)
            let observer = makeObserver(fixture, clock: clock, rereadInterval: .seconds(60))
            #expect(observer.isRereadTimerArmed)
            var statuses = observer.statusStream.makeAsyncIterator()
            #expect(await statuses.next()?.batteryLevel == 0.8)

            await clock.waitForSleepers(1)
            #expect(clock.sleeperDeadlines == [ManualClock.Instant(offset: .seconds(60))])
            try fixture.set("BAT0", "capacity", "75")
            clock.advance(by: .seconds(59))
            #expect(observer.status.batteryLevel == 0.8)
            clock.advance(by: .seconds(1))
            #expect(await statuses.next()?.batteryLevel == 0.75)

            // It keeps going, one interval after the other.
            await clock.waitForSleepers(1)
            #expect(clock.sleeperDeadlines == [ManualClock.Instant(offset: .seconds(120))])
            try fixture.set("BAT0", "capacity", "74")
            clock.advance(by: .seconds(60))
            #expect(await statuses.next()?.batteryLevel == 0.74)
        }

        @Test("without a system battery no timer is armed, not even with a mouse battery")
        func noBatteryNoTimer() throws {
            let clock = ManualClock()
            let desktop = try PowerSupplyFixture([
                .mains(online: "1"),
                PowerFixtureSupply("hidpp_battery_0", ["type": "Battery", "scope": "Device", "capacity": "40"]),
            ])
            let observer = makeObserver(desktop, clock: clock)
            #expect(!observer.isRereadTimerArmed)
            #expect(clock.sleeperCount == 0)
            #expect(observer.handleUEvent(acChange))
            #expect(!observer.isRereadTimerArmed)
            #expect(clock.sleeperCount == 0)
        }

        @Test("the timer is disarmed when the battery goes and armed again when it returns")
        func timerFollowsBattery() async throws {
            let clock = ManualClock()
            let fixture = try PowerSupplyFixture(onBattery80)
            let observer = makeObserver(fixture, clock: clock)
            await clock.waitForSleepers(1)

            try fixture.remove("BAT0")
            observer.handleUEvent(batteryRemove)
            #expect(!observer.isRereadTimerArmed)
            #expect(clock.sleeperCount == 0)

            try fixture.add(.battery(status: "Discharging", capacity: "80"))
            observer.handleUEvent(batteryAdd)
            #expect(observer.isRereadTimerArmed)
            await clock.waitForSleepers(1)
        }

        @Test("with the re-read turned off, a battery arms no timer")
        func rereadOff() throws {
            let clock = ManualClock()
            let fixture = try PowerSupplyFixture(onBattery80)
            let observer = makeObserver(fixture, clock: clock, rereadInterval: nil)
            #expect(!observer.isRereadTimerArmed)
            #expect(clock.sleeperCount == 0)
        }

        @Test("a consumed stream keeps the observer alive; once released, its timer stops")
        func deinitStops() async throws {
            let clock = ManualClock()
            let fixture = try PowerSupplyFixture(onBattery80)
            weak var released: PowerObserver?
            do {
                var observer: PowerObserver? = makeObserver(fixture, clock: clock)
                released = observer
                var statuses = try #require(observer).statusStream.makeAsyncIterator()
                await clock.waitForSleepers(1)
                observer = nil
                #expect(released != nil, "the stream being consumed keeps the observer alive")
                #expect(clock.sleeperCount == 1)
                #expect(await statuses.next()?.batteryLevel == 0.8)
            }
            #expect(released == nil)
            #expect(clock.sleeperCount == 0)
        }

        @Test("two subscribers each get the current value and the change")
        func multicast() async throws {
            let fixture = try PowerSupplyFixture(onAC)
            let observer = makeObserver(fixture)
            var first = observer.statusStream.makeAsyncIterator()
            var second = observer.statusStream.makeAsyncIterator()
            #expect(await first.next()?.isOnExternalPower == true)
            #expect(await second.next()?.isOnExternalPower == true)
            try fixture.set("AC", "online", "0")
            try fixture.set("BAT0", "status", "Discharging")
            observer.handleUEvent(acChange)
            #expect(await first.next()?.isOnExternalPower == false)
            #expect(await second.next()?.isOnExternalPower == false)
        }

        @Test("a SyncEnvironment given the observer follows its changes synchronously")
        func environmentFollows() throws {
            let fixture = try PowerSupplyFixture(onAC)
            let observer = makeObserver(fixture)
            let environment = SyncEnvironment(power: observer)
            #expect(environment.status.satisfiedRequirements.contains(.externalPower))
            try fixture.set("AC", "online", "0")
            try fixture.set("BAT0", "status", "Discharging")
            try fixture.set("BAT0", "capacity", "10")
            observer.handleUEvent(batteryChange)
            let status = environment.status
            #expect(!status.satisfiedRequirements.contains(.externalPower))
            #expect(!status.satisfiedRequirements.contains(.batteryNotLow))
            #expect(status.satisfiedRequirements.contains(.notLowPower))
        }
    }

    @Suite("PowerObserver against the real kernel", .timeLimit(.minutes(1)))
    struct PowerObserverKernelTests {
        @Test(
            "the uevent socket opens and the observer reads the real /sys",
            .enabled(if: FileManager.default.fileExists(atPath: "/sys/class"), "needs a mounted sysfs")
        )
        func realSysfs() {
            let observer = PowerObserver()
            #expect(observer.isListeningForUEvents)
            #expect(observer.status == PowerStatus(powerSupplies: PowerSupplyReader.readSupplies(sysfsRoot: "/sys")))
        }

        @Test("SyncEnvironment(monitoring:) gives .power a PowerObserver exactly when .power is requested")
        func environmentWiring() {
            let withPower = SyncEnvironment(monitoring: [.power])
            #expect(withPower.monitoredParts == [.power])
            #expect(
                withPower.status.power == PowerStatus(powerSupplies: PowerSupplyReader.readSupplies(sysfsRoot: "/sys")))
            #expect(!SyncEnvironment(monitoring: [.account]).monitoredParts.contains(.power))
        }
    }
#endif
