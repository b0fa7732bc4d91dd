#if os(Linux)
    import Dispatch
#elseif canImport(Foundation) && (os(macOS) || os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))
    import Foundation
#endif

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
///   `OnBattery` decides ``PowerStatus/isOnExternalPower``. Both daemons are followed through
///   `PropertiesChanged` and picked up again when they restart; ``provenance`` tells which source
///   decided each field.
/// * **Apple platforms**: ``PowerStatus/isLowPowerModeEnabled`` follows
///   `ProcessInfo.isLowPowerModeEnabled` and its change notification. The power source and battery
///   level are not read: ``PowerStatus/isOnExternalPower`` is `true` and ``PowerStatus/batteryLevel``
///   `nil`, so `.externalPower` and `.batteryNotLow` never block.
/// * **Other platforms**: the status is ``PowerStatus/unrestricted`` and never changes.
///
/// The initial status is read before `init` returns (on Linux, after waiting up to one second for the power
/// daemons' first answers when a system bus exists). Releasing the observer stops its sources; a stream
/// obtained from ``statusStream`` keeps the observer alive while it is being consumed.
public final class PowerObserver: PowerObserving, BroadcastBacked {
    /// The broadcast that holds the status.
    package let broadcast: StatusBroadcast<PowerStatus>

    /// The current power status. Thread-safe; never blocks for longer than a short critical section.
    public var status: PowerStatus { broadcast.value }

    /// A new stream: the current status first, then every change.
    public var statusStream: AsyncStream<PowerStatus> { broadcast.stream(retaining: self) }

    #if os(Linux)
        private let monitor: LinuxPowerMonitor
        private let uevents: UEventSocket?
        private let dbus: PowerDBusSource?

        /// Creates an observer of the machine's power supplies under `/sys`.
        public convenience init() {
            self.init(sysfsRoot: "/sys")
        }

        /// Creates an observer of the power supplies under `sysfsRoot`.
        ///
        /// - Parameters:
        ///   - sysfsRoot: the directory that contains `class/power_supply`; tests pass a fixture tree.
        ///   - clock: the clock of the slow re-read.
        ///   - rereadInterval: how often sysfs is re-read while a system battery exists, for drivers that
        ///     change the capacity without a uevent; `nil` turns the re-read off. Must be positive.
        public convenience init(
            sysfsRoot: String = "/sys",
            clock: any Clock<Duration> = ContinuousClock(),
            rereadInterval: Duration? = .seconds(60)
        ) {
            self.init(
                sysfsRoot: sysfsRoot, clock: clock, rereadInterval: rereadInterval, listensForUEvents: true,
                dbus: DBusSourceConfiguration())
        }

        /// Creates an observer; with `listensForUEvents` false no socket is opened, and changes come only
        /// from ``handleUEvent(_:)`` and the slow re-read (for tests). With `dbus` nil, no power daemon is
        /// consulted.
        package init(
            sysfsRoot: String,
            clock: any Clock<Duration>,
            rereadInterval: Duration?,
            listensForUEvents: Bool,
            dbus: DBusSourceConfiguration? = nil
        ) {
            let broadcast = StatusBroadcast(PowerStatus.unrestricted)
            let monitor = LinuxPowerMonitor(
                sysfsRoot: sysfsRoot, clock: clock, rereadInterval: rereadInterval, broadcast: broadcast)
            self.broadcast = broadcast
            self.monitor = monitor
            // Open the socket before the first read, so no change falls between the two.
            uevents =
                listensForUEvents
                ? try? UEventSocket(queue: monitor.eventQueue) { datagrams, overflowed in
                    monitor.handleOnQueue(datagrams: datagrams, overflowed: overflowed)
                } : nil
            monitor.refresh()
            if let dbus {
                let source = PowerDBusSource(configuration: dbus) { [weak monitor] facts in
                    monitor?.update(dbus: facts)
                }
                source.start(waitingUpTo: dbus.initialWait)
                self.dbus = source
            } else {
                self.dbus = nil
            }
        }

        /// Which source decided each field of ``status`` (sysfs, power-profiles-daemon, UPower), with notes
        /// on the daemons that are missing and problems met with them.
        public var provenance: PowerProvenance {
            var provenance = monitor.provenance
            provenance.notes += dbus?.notes ?? ["power daemons: not consulted"]
            return provenance
        }

        deinit {
            dbus?.stop()
            uevents?.cancel()
            monitor.stop()
            broadcast.finish()
        }

        /// Feeds one uevent datagram as if the kernel had sent it; re-reads sysfs when it is a
        /// `power_supply` event. Returns after the new status (if any) is published.
        ///
        /// - Returns: whether the datagram caused a re-read.
        @discardableResult
        package func handleUEvent(_ bytes: [UInt8]) -> Bool {
            monitor.handle(datagrams: [bytes], overflowed: false)
        }

        /// Re-reads sysfs as after a lost event (a receive-buffer overflow) and returns when published.
        package func handleUEventOverflow() {
            monitor.handle(datagrams: [], overflowed: true)
        }

        /// Whether the kernel uevent socket is open.
        package var isListeningForUEvents: Bool { uevents != nil }

        /// Whether the slow re-read timer exists, which it does only while a system battery exists.
        package var isRereadTimerArmed: Bool { monitor.isRereadTimerArmed }
    #elseif canImport(Foundation) && (os(macOS) || os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))
        // `NSObjectProtocol` is not `Sendable`; the token is only passed back to `removeObserver`.
        nonisolated(unsafe) private let notificationToken: any NSObjectProtocol

        /// Creates an observer of Low Power Mode (`ProcessInfo.isLowPowerModeEnabled`).
        public init() {
            let broadcast = StatusBroadcast(
                PowerStatus(isLowPowerModeEnabled: ProcessInfo.processInfo.isLowPowerModeEnabled))
            self.broadcast = broadcast
            notificationToken = NotificationCenter.default.addObserver(
                forName: .NSProcessInfoPowerStateDidChange, object: nil, queue: nil
            ) { _ in
                broadcast.update { $0.isLowPowerModeEnabled = ProcessInfo.processInfo.isLowPowerModeEnabled }
            }
        }

        /// Which source decided each field of ``status``: `ProcessInfo` for Low Power Mode, defaults otherwise.
        public var provenance: PowerProvenance {
            PowerProvenance(
                isLowPowerModeEnabled: .processInfo, isOnExternalPower: .defaultValue, batteryLevel: .defaultValue)
        }

        deinit {
            NotificationCenter.default.removeObserver(notificationToken)
            broadcast.finish()
        }
    #else
        /// Creates an observer that reports ``PowerStatus/unrestricted``: this platform has no source.
        public init() {
            broadcast = StatusBroadcast(PowerStatus.unrestricted)
        }

        /// Which source decided each field of ``status``: none on this platform.
        public var provenance: PowerProvenance { .none }
    #endif
}
