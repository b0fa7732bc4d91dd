#if os(Linux)
    import SyncGate
    import Testing

    /// A fixture tree and the status it must read as.
    struct PowerFixtureCase: Sendable, CustomTestStringConvertible {
        var name: String
        var supplies: [PowerFixtureSupply]
        var isOnExternalPower: Bool
        var batteryLevel: Double?
        var hasSystemBattery: Bool

        var testDescription: String { name }

        var expected: PowerStatus {
            PowerStatus(isLowPowerModeEnabled: false, isOnExternalPower: isOnExternalPower, batteryLevel: batteryLevel)
        }
    }

    private let mouse = PowerFixtureSupply(
        "hidpp_battery_0",
        ["type": "Battery", "scope": "Device", "status": "Discharging", "capacity": "5", "present": "1"]
    )

    private let fixtureCases: [PowerFixtureCase] = [
        PowerFixtureCase(
            name: "desktop without any supply", supplies: [],
            isOnExternalPower: true, batteryLevel: nil, hasSystemBattery: false),
        PowerFixtureCase(
            name: "desktop with an online mains supply", supplies: [.mains(online: "1")],
            isOnExternalPower: true, batteryLevel: nil, hasSystemBattery: false),
        PowerFixtureCase(
            name: "laptop on AC, charging",
            supplies: [.mains(online: "1"), .battery(status: "Charging", capacity: "60")],
            isOnExternalPower: true, batteryLevel: 0.6, hasSystemBattery: true),
        PowerFixtureCase(
            name: "laptop on AC, full, AC unreadable",
            supplies: [.mains(online: .unreadable), .battery(status: "Full", capacity: "100")],
            isOnExternalPower: true, batteryLevel: 1, hasSystemBattery: true),
        PowerFixtureCase(
            name: "laptop on AC held by a charge threshold (Not charging), no AC entry",
            supplies: [.battery(status: "Not charging", capacity: "79")],
            isOnExternalPower: true, batteryLevel: 0.79, hasSystemBattery: true),
        PowerFixtureCase(
            name: "laptop on battery at 80%",
            supplies: [.mains(online: "0"), .battery(status: "Discharging", capacity: "80")],
            isOnExternalPower: false, batteryLevel: 0.8, hasSystemBattery: true),
        PowerFixtureCase(
            name: "laptop on battery at 10%",
            supplies: [.mains(online: "0"), .battery(status: "Discharging", capacity: "10")],
            isOnExternalPower: false, batteryLevel: 0.1, hasSystemBattery: true),
        PowerFixtureCase(
            name: "USB-C supply online while the battery still says Discharging",
            supplies: [
                PowerFixtureSupply("ucsi-source-psy-USBC000:001", ["type": "USB", "online": "1"]),
                .battery(status: "Discharging", capacity: "50"),
            ],
            isOnExternalPower: true, batteryLevel: 0.5, hasSystemBattery: true),
        PowerFixtureCase(
            name: "two batteries, weighted by full energy",
            supplies: [
                .mains(online: "0"),
                .battery("BAT0", status: "Discharging", capacity: "90", extra: ["energy_full": "50000000"]),
                .battery("BAT1", status: "Discharging", capacity: "20", extra: ["energy_full": "20000000"]),
            ],
            isOnExternalPower: false, batteryLevel: 0.7, hasSystemBattery: true),
        PowerFixtureCase(
            name: "two batteries, one charging",
            supplies: [
                .battery("BAT0", status: "Discharging", capacity: "30", extra: ["energy_full": "30000000"]),
                .battery("BAT1", status: "Charging", capacity: "60", extra: ["energy_full": "30000000"]),
            ],
            isOnExternalPower: true, batteryLevel: 0.45, hasSystemBattery: true),
        PowerFixtureCase(
            name: "two batteries with capacity only are averaged",
            supplies: [
                .battery("BAT0", status: "Discharging", capacity: "40"),
                .battery("BAT1", status: "Discharging", capacity: "20"),
            ],
            isOnExternalPower: false, batteryLevel: 0.3, hasSystemBattery: true),
        PowerFixtureCase(
            name: "battery with energy_now and energy_full only",
            supplies: [
                .battery(status: "Discharging", extra: ["energy_now": "15000000", "energy_full": "60000000"])
            ],
            isOnExternalPower: false, batteryLevel: 0.25, hasSystemBattery: true),
        PowerFixtureCase(
            name: "battery with charge_now and charge_full only",
            supplies: [
                .battery(status: "Discharging", extra: ["charge_now": "1000000", "charge_full": "4000000"])
            ],
            isOnExternalPower: false, batteryLevel: 0.25, hasSystemBattery: true),
        PowerFixtureCase(
            name: "battery with capacity_level only",
            supplies: [.battery(status: "Discharging", extra: ["capacity_level": "Critical"])],
            isOnExternalPower: false, batteryLevel: 0.05, hasSystemBattery: true),
        PowerFixtureCase(
            name: "desktop with a device-scope mouse battery",
            supplies: [mouse],
            isOnExternalPower: true, batteryLevel: nil, hasSystemBattery: false),
        PowerFixtureCase(
            name: "laptop on battery with a device-scope mouse battery",
            supplies: [mouse, .mains(online: "0"), .battery(status: "Discharging", capacity: "80")],
            isOnExternalPower: false, batteryLevel: 0.8, hasSystemBattery: true),
        PowerFixtureCase(
            name: "empty battery bay (present 0) is ignored",
            supplies: [.battery(status: "Unknown", capacity: "0", extra: ["present": "0"])],
            isOnExternalPower: true, batteryLevel: nil, hasSystemBattery: false),
        PowerFixtureCase(
            name: "battery without a scope file counts as a system battery",
            supplies: [
                PowerFixtureSupply("BAT0", ["type": "Battery", "status": "Discharging", "capacity": "42"])
            ],
            isOnExternalPower: false, batteryLevel: 0.42, hasSystemBattery: true),
        PowerFixtureCase(
            name: "unreadable capacity and status: level unknown, not on external power",
            supplies: [.mains(online: "0"), .battery(status: .unreadable, capacity: .unreadable)],
            isOnExternalPower: false, batteryLevel: nil, hasSystemBattery: true),
        PowerFixtureCase(
            name: "malformed numbers are unknown",
            supplies: [
                .mains(online: "yes"),
                .battery(
                    status: "Discharging", capacity: "eighty",
                    extra: ["energy_now": "-1", "energy_full": "0", "charge_now": "12abc"]),
            ],
            isOnExternalPower: false, batteryLevel: nil, hasSystemBattery: true),
        PowerFixtureCase(
            name: "binary garbage and empty files are unknown",
            supplies: [
                .mains(online: .bytes([0xFF, 0x00, 0xFE])),
                .battery(status: .bytes([0xC3, 0x28, 0x0A]), capacity: .bytes([])),
            ],
            isOnExternalPower: false, batteryLevel: nil, hasSystemBattery: true),
        PowerFixtureCase(
            name: "negative capacity is unknown, capacity above 100 is clamped",
            supplies: [
                .battery("BAT0", status: "Discharging", capacity: "-3"),
                .battery("BAT1", status: "Discharging", capacity: "104"),
            ],
            isOnExternalPower: false, batteryLevel: 1, hasSystemBattery: true),
        PowerFixtureCase(
            name: "a supply whose type is unreadable is ignored",
            supplies: [
                PowerFixtureSupply("weird", ["type": .unreadable, "online": "1", "capacity": "3"]),
                .battery(status: "Discharging", capacity: "64"),
            ],
            isOnExternalPower: false, batteryLevel: 0.64, hasSystemBattery: true),
        PowerFixtureCase(
            name: "values with surrounding whitespace are read",
            supplies: [.mains(online: "  0\t"), .battery(status: " Discharging ", capacity: "\n55 ")],
            isOnExternalPower: false, batteryLevel: 0.55, hasSystemBattery: true),
    ]

    @Suite("PowerSupplyReader: sysfs fixture trees", .timeLimit(.minutes(1)))
    struct PowerSupplyReaderTests {
        @Test("each fixture tree reads as its expected status", arguments: fixtureCases)
        func fixture(_ fixtureCase: PowerFixtureCase) throws {
            let fixture = try PowerSupplyFixture(fixtureCase.supplies)
            let (status, hasSystemBattery) = PowerSupplyReader.readStatus(sysfsRoot: fixture.root)
            #expect(status.isOnExternalPower == fixtureCase.isOnExternalPower)
            #expect(status.isLowPowerModeEnabled == false)
            #expect(hasSystemBattery == fixtureCase.hasSystemBattery)
            switch (status.batteryLevel, fixtureCase.batteryLevel) {
            case (let level?, let expected?):
                #expect(abs(level - expected) < 1e-9, "level \(level), expected \(expected)")
            case (nil, nil):
                break
            default:
                Issue.record(
                    "battery level \(String(describing: status.batteryLevel)), expected \(String(describing: fixtureCase.batteryLevel))"
                )
            }
        }

        @Test("the 10% laptop on battery is low; the 80% one and the charging one are not")
        func lowBattery() throws {
            let low = try PowerSupplyFixture([.mains(online: "0"), .battery(status: "Discharging", capacity: "10")])
            #expect(PowerSupplyReader.readStatus(sysfsRoot: low.root).status.isBatteryLow)
            let fine = try PowerSupplyFixture([.mains(online: "0"), .battery(status: "Discharging", capacity: "80")])
            #expect(!PowerSupplyReader.readStatus(sysfsRoot: fine.root).status.isBatteryLow)
            let charging = try PowerSupplyFixture([.mains(online: "1"), .battery(status: "Charging", capacity: "10")])
            #expect(!PowerSupplyReader.readStatus(sysfsRoot: charging.root).status.isBatteryLow)
        }

        @Test("a missing class/power_supply directory reads as no supplies")
        func missingDirectory() throws {
            let fixture = try PowerSupplyFixture(createsClassDirectory: false)
            #expect(PowerSupplyReader.readSupplies(sysfsRoot: fixture.root).isEmpty)
            #expect(PowerSupplyReader.readStatus(sysfsRoot: fixture.root).status == .unrestricted)
            #expect(PowerSupplyReader.readSupplies(sysfsRoot: "/nonexistent/syncgate").isEmpty)
        }

        @Test("the reader collects the attributes the mapping uses")
        func attributes() throws {
            let fixture = try PowerSupplyFixture([
                .mains(online: "1"),
                .battery(
                    status: "Charging", capacity: "61",
                    extra: ["energy_now": "30500000", "energy_full": "50000000", "capacity_level": "Normal"]),
            ])
            let supplies = PowerSupplyReader.readSupplies(sysfsRoot: fixture.root)
            #expect(supplies.map(\.name) == ["AC", "BAT0"])
            #expect(supplies[0] == PowerSupply(name: "AC", type: "Mains", online: 1))
            #expect(
                supplies[1]
                    == PowerSupply(
                        name: "BAT0", type: "Battery", scope: "System", present: 1, status: "Charging",
                        capacity: 61, energyNow: 30_500_000, energyFull: 50_000_000))
        }
    }
#endif
