import SyncGate
import Testing

/// Supplies and the status they map to, without any file system.
struct PowerMappingCase: Sendable, CustomTestStringConvertible {
    var name: String
    var supplies: [PowerSupply]
    var expected: PowerStatus

    var testDescription: String { name }
}

@Suite("PowerStatus(powerSupplies:): the sysfs mapping", .timeLimit(.minutes(1)))
struct PowerSupplyMappingTests {
    static let cases: [PowerMappingCase] = [
        PowerMappingCase(name: "no supplies", supplies: [], expected: .unrestricted),
        PowerMappingCase(
            name: "a device-scope USB supply online says nothing about the machine",
            supplies: [
                PowerSupply(name: "usb-charger", type: "USB", scope: "Device", online: 1),
                PowerSupply(name: "BAT0", type: "Battery", status: "Discharging", capacity: 70),
            ],
            expected: PowerStatus(isOnExternalPower: false, batteryLevel: 0.7)
        ),
        PowerMappingCase(
            name: "online 2 (programmable) counts as online",
            supplies: [
                PowerSupply(name: "ucsi", type: "USB", online: 2),
                PowerSupply(name: "BAT0", type: "Battery", status: "Discharging", capacity: 70),
            ],
            expected: PowerStatus(isOnExternalPower: true, batteryLevel: 0.7)
        ),
        PowerMappingCase(
            name: "a wireless charger online",
            supplies: [
                PowerSupply(name: "wlc", type: "Wireless", online: 1),
                PowerSupply(name: "BAT0", type: "Battery", status: "Unknown", capacity: 20),
            ],
            expected: PowerStatus(isOnExternalPower: true, batteryLevel: 0.2)
        ),
        PowerMappingCase(
            name: "status Unknown with no supply online is on battery",
            supplies: [PowerSupply(name: "BAT0", type: "Battery", status: "Unknown", capacity: 20)],
            expected: PowerStatus(isOnExternalPower: false, batteryLevel: 0.2)
        ),
        PowerMappingCase(
            name: "a charge is weighed by charge_full × voltage_min_design",
            supplies: [
                PowerSupply(
                    name: "BAT0", type: "Battery", status: "Discharging", capacity: 100,
                    chargeFull: 3_000_000, voltageMinDesign: 10_000_000),
                PowerSupply(name: "BAT1", type: "Battery", status: "Discharging", capacity: 0, energyFull: 10_000_000),
            ],
            expected: PowerStatus(isOnExternalPower: false, batteryLevel: 0.75)
        ),
        PowerMappingCase(
            name: "when one battery's full energy is unknown, levels are averaged",
            supplies: [
                PowerSupply(
                    name: "BAT0", type: "Battery", status: "Discharging", capacity: 100, energyFull: 90_000_000),
                PowerSupply(name: "BAT1", type: "Battery", status: "Discharging", capacity: 50),
            ],
            expected: PowerStatus(isOnExternalPower: false, batteryLevel: 0.75)
        ),
        PowerMappingCase(
            name: "a battery of unknown level does not hide the known one",
            supplies: [
                PowerSupply(name: "BAT0", type: "Battery", status: "Discharging", capacity: 15),
                PowerSupply(name: "BAT1", type: "Battery", status: "Discharging"),
            ],
            expected: PowerStatus(isOnExternalPower: false, batteryLevel: 0.15)
        ),
        PowerMappingCase(
            name: "energy_now above energy_full is clamped",
            supplies: [
                PowerSupply(
                    name: "BAT0", type: "Battery", status: "Discharging", energyNow: 51_000_000,
                    energyFull: 50_000_000)
            ],
            expected: PowerStatus(isOnExternalPower: false, batteryLevel: 1)
        ),
    ]

    @Test("mapping table", arguments: cases)
    func mapping(_ mappingCase: PowerMappingCase) {
        #expect(PowerStatus(powerSupplies: mappingCase.supplies) == mappingCase.expected)
    }

    @Test(
        "capacity_level approximations",
        arguments: [
            ("Critical", 0.05), ("Low", 0.1), ("Normal", 0.5), ("High", 0.9), ("Full", 1.0),
        ])
    func capacityLevel(_ level: String, _ expected: Double) {
        #expect(PowerSupply(name: "BAT0", type: "Battery", capacityLevel: level).level == expected)
    }

    @Test("capacity_level Unknown or garbage gives no level")
    func capacityLevelUnknown() {
        #expect(PowerSupply(name: "BAT0", type: "Battery", capacityLevel: "Unknown").level == nil)
        #expect(PowerSupply(name: "BAT0", type: "Battery", capacityLevel: "??").level == nil)
    }

    @Test("Low Power Mode is never reported from sysfs")
    func neverLowPowerMode() {
        let status = PowerStatus(powerSupplies: [
            PowerSupply(name: "BAT0", type: "Battery", status: "Discharging", capacity: 1)
        ])
        #expect(!status.isLowPowerModeEnabled)
        #expect(status.isBatteryLow)
    }
}
