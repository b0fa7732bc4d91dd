/// The device's power state as the operating system reports it, multicast to any number of consumers.
///
/// `PowerObserver()` picks the platform's source:
///
/// * **Linux**: `/sys/class/power_supply`. ``PowerStatus/isOnExternalPower`` is `true` when a mains,
///   USB or other non-battery supply is online, when a system battery reports `Charging`, `Full` or
///   `Not charging`, or when there is no system battery (desktops, servers, most VMs).
///   ``PowerStatus/batteryLevel`` combines the system batteries, weighted by their full energy;
///   peripherals' batteries (`scope` `Device`, such as a wireless mouse) are ignored. A file that
///   cannot be read or parsed counts as unknown. Changes come from the kernel's uevents
///   (`NETLINK_KOBJECT_UEVENT`, filtered to `SUBSYSTEM=power_supply`), read by a dispatch source off
///   the cooperative pool. Some drivers update a battery's capacity without sending a uevent, so while
///   a system battery exists sysfs is also re-read once per re-read interval (a minute by default);
///   without a battery nothing wakes up. If the uevent socket cannot be opened (a sandbox that forbids
///   netlink), the observer still reads sysfs at start and on that slow re-read.
///   ``PowerStatus/isLowPowerModeEnabled`` follows power-profiles-daemon on the system bus
///   (`ActiveProfile == "power-saver"`, under `org.freedesktop.UPower.PowerProfiles` or the legacy
///   `net.hadess.PowerProfiles`), and is `false` without it. Where sysfs lists no supply at all, UPower's
///   `OnBattery` decides ``PowerStatus/isOnExternalPower``. ``PowerStatus/isDeviceIdle`` follows
///   systemd-logind's `IdleHint`, and is `true` without logind. The daemons are followed through
///   `PropertiesChanged` and picked up again when they restart; ``StatusObserver/provenance`` tells which source
///   decided each field.
/// * **Apple platforms**: ``PowerStatus/isLowPowerModeEnabled`` follows
///   `ProcessInfo.isLowPowerModeEnabled` and its change notification. The power source and battery
///   level are not read: ``PowerStatus/isOnExternalPower`` is `true` and ``PowerStatus/batteryLevel``
///   `nil`, so `.externalPower` and `.batteryNotLow` never block.
/// * **Other platforms**: the status is ``PowerStatus/unrestricted`` and never changes.
///
/// The initial status is read before `init` returns (on Linux, after waiting up to one second for the power
/// daemons' first answers when a system bus exists). Releasing the observer stops its sources; a stream
/// obtained from ``StatusObserver/statusStream`` keeps the observer alive while it is being consumed.
///
/// ``StatusObserver/provenance`` tells which source decided each field of ``StatusObserver/status``, with
/// notes on sources that are missing and on problems met with them. On Linux: sysfs,
/// power-profiles-daemon or UPower, with notes on the daemons that are missing; on Apple platforms:
/// `ProcessInfo` for Low Power Mode, defaults otherwise; elsewhere, none.
public typealias PowerObserver = StatusObserver<PowerStatus, PowerProvenance>

extension StatusObserver: PowerObserving where Status == PowerStatus {}
