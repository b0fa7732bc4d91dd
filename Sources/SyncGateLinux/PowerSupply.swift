import SyncGateCore

/// The facts about one entry of `/sys/class/power_supply`, as read from its attribute files.
///
/// Every attribute is optional: a file that is missing, unreadable or malformed is `nil`, meaning
/// unknown. The meaning of the attributes is in the kernel's
/// `Documentation/ABI/testing/sysfs-class-power`. Energies are in µWh, charges in µAh, voltages in µV.
package struct PowerSupply: Sendable, Hashable {
    /// The directory name, such as `AC`, `BAT0` or `hidpp_battery_0`.
    package var name: String
    /// `type`: `Battery`, `UPS`, `Mains`, `USB`, `USB_C`, `USB_PD`, `Wireless`, …
    package var type: String?
    /// `scope`: `System`, `Device` (a peripheral's own battery) or `Unknown`; older kernels have none.
    package var scope: String?
    /// `online`: 0 offline, 1 online, 2 online and programmable (non-battery supplies).
    package var online: Int?
    /// `present`: 0 when a battery bay is empty.
    package var present: Int?
    /// `status`: `Charging`, `Discharging`, `Not charging`, `Full` or `Unknown` (batteries).
    package var status: String?
    /// `capacity`: the charge in percent, 0–100.
    package var capacity: Int?
    /// `capacity_level`: `Unknown`, `Critical`, `Low`, `Normal`, `High` or `Full`.
    package var capacityLevel: String?
    /// `energy_now` in µWh.
    package var energyNow: Int?
    /// `energy_full` in µWh.
    package var energyFull: Int?
    /// `charge_now` in µAh.
    package var chargeNow: Int?
    /// `charge_full` in µAh.
    package var chargeFull: Int?
    /// `voltage_min_design` in µV, used to turn a charge into an energy.
    package var voltageMinDesign: Int?

    /// Creates the facts of one supply; unknown attributes are `nil`.
    package init(
        name: String,
        type: String?,
        scope: String? = nil,
        online: Int? = nil,
        present: Int? = nil,
        status: String? = nil,
        capacity: Int? = nil,
        capacityLevel: String? = nil,
        energyNow: Int? = nil,
        energyFull: Int? = nil,
        chargeNow: Int? = nil,
        chargeFull: Int? = nil,
        voltageMinDesign: Int? = nil
    ) {
        self.name = name
        self.type = type
        self.scope = scope
        self.online = online
        self.present = present
        self.status = status
        self.capacity = capacity
        self.capacityLevel = capacityLevel
        self.energyNow = energyNow
        self.energyFull = energyFull
        self.chargeNow = chargeNow
        self.chargeFull = chargeFull
        self.voltageMinDesign = voltageMinDesign
    }

    /// Whether the supply belongs to a peripheral (`scope` is `Device`), such as a wireless mouse.
    /// Such supplies say nothing about the machine's own power and are ignored.
    package var isDeviceScoped: Bool { scope == "Device" }

    /// Whether this is a battery that powers the machine: type `Battery`, not device-scoped, and not
    /// reported absent (`present` 0).
    package var isSystemBattery: Bool {
        type == "Battery" && !isDeviceScoped && present != 0
    }

    /// Whether this is a machine-level supply other than a battery (mains, USB, wireless, UPS, …) that
    /// reports `online` ≥ 1.
    package var isOnlineExternalSupply: Bool {
        guard let type, type != "Battery", !isDeviceScoped, let online else { return false }
        return online > 0
    }

    /// Whether the battery's `status` shows that it is connected to power: `Charging`, `Full` or
    /// `Not charging` (plugged in but held, for example by a charge threshold).
    package var statusImpliesExternalPower: Bool {
        switch status {
        case "Charging", "Full", "Not charging": true
        default: false
        }
    }

    /// The battery's charge from 0 to 1, from the first source that is known: `capacity`, then
    /// `energy_now`/`energy_full`, then `charge_now`/`charge_full`, then an approximation of
    /// `capacity_level` (`Critical` 0.05, `Low` 0.1, `Normal` 0.5, `High` 0.9, `Full` 1). `nil` when
    /// none is known. A `capacity` above 100, or a `now` above `full`, is clamped to 1.
    package var level: Double? {
        if let capacity, capacity >= 0 {
            return min(Double(capacity) / 100, 1)
        }
        if let ratio = Self.ratio(energyNow, energyFull) { return ratio }
        if let ratio = Self.ratio(chargeNow, chargeFull) { return ratio }
        switch capacityLevel {
        case "Critical": return 0.05
        case "Low": return 0.1
        case "Normal": return 0.5
        case "High": return 0.9
        case "Full": return 1
        default: return nil
        }
    }

    /// The battery's full energy in µWh, used to weigh batteries against each other: `energy_full`,
    /// or `charge_full` × `voltage_min_design`; `nil` when neither is known.
    package var fullEnergy: Double? {
        if let energyFull, energyFull > 0 { return Double(energyFull) }
        if let chargeFull, chargeFull > 0, let voltageMinDesign, voltageMinDesign > 0 {
            return Double(chargeFull) * Double(voltageMinDesign) / 1_000_000
        }
        return nil
    }

    private static func ratio(_ now: Int?, _ full: Int?) -> Double? {
        guard let now, let full, now >= 0, full > 0 else { return nil }
        return min(Double(now) / Double(full), 1)
    }
}
