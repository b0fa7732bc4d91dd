import SyncGateCore

/// The pure rule that merges sysfs's power status with the D-Bus daemons' facts.
///
/// * Low Power Mode ⇔ `ActiveProfile == "power-saver"` (GLib's rule); `false` without a profiles daemon.
/// * External power: sysfs when it lists a supply; where it lists none (containers, some VMs), UPower's
///   `OnBattery` when UPower is present; otherwise sysfs's "no supply means external power".
/// * Battery level: sysfs only.
/// * Device idle: systemd-logind's `IdleHint`; idle (so `.deviceIdle` is met) without logind.
enum PowerMapping {
    /// The status to publish and where each field came from.
    static func merge(sysfs: PowerStatus, sysfsHasSupplies: Bool, dbus: PowerDBusFacts) -> (
        status: PowerStatus, provenance: PowerProvenance
    ) {
        var status = sysfs
        var provenance = PowerProvenance(
            isLowPowerModeEnabled: .defaultValue, isOnExternalPower: .sysfs, batteryLevel: .sysfs)
        if let profile = dbus.activeProfile {
            status.isLowPowerModeEnabled = profile == "power-saver"
            provenance.isLowPowerModeEnabled = .powerProfiles(busName: dbus.profilesBusName ?? "?")
        } else {
            status.isLowPowerModeEnabled = false
        }
        if let idleHint = dbus.idleHint {
            status.isDeviceIdle = idleHint
            provenance.isDeviceIdle = .logind
        } else {
            status.isDeviceIdle = true
        }
        if !sysfsHasSupplies, let onBattery = dbus.onBattery {
            status.isOnExternalPower = !onBattery
            provenance.isOnExternalPower = .upower
        }
        return (status, provenance)
    }
}
