import SyncGateCore

#if os(Linux)
    import Dispatch
    /// The power backend on Linux: `/sys/class/power_supply` (``LinuxPowerReader``), re-read on the
    /// kernel's uevents (``UEventSocket``), with power-profiles-daemon and UPower from the system bus
    /// (``PowerDaemonFollower``).
    final class LinuxPowerBackend: PlatformBackend {
        /// The broadcast that holds the status.
        let broadcast: StatusBroadcast<PowerStatus>
        /// The sysfs reader that publishes to ``broadcast``.
        let reader: LinuxPowerReader
        /// The kernel uevent socket, or `nil` when it is not opened or cannot be.
        let uevents: UEventSocket?
        /// Why the uevent socket could not be opened, when it could not.
        private let ueventFailure: UEventSocket.OpenError?
        /// How often sysfs is re-read where uevents cannot be listened to.
        static let eventlessRereadInterval = Duration.seconds(2)
        private let dbus: PowerDaemonFollower?

        /// Creates a backend; with `listensForUEvents` false no socket is opened. With `dbus` nil, no power
        /// daemon is consulted; otherwise waits up to its `initialWait` for the daemons' first answers.
        init(
            sysfsRoot: String,
            clock: any Clock<Duration>,
            rereadInterval: Duration?,
            listensForUEvents: Bool,
            dbus: DBusFollowerConfiguration?,
            openUEvents: (
                DispatchQueue, @escaping @Sendable ([[UInt8]], Bool) -> Void
            ) throws(UEventSocket.OpenError) -> UEventSocket = { queue, handler throws(UEventSocket.OpenError) in
                try UEventSocket(queue: queue, handler: handler)
            }
        ) {
            let broadcast = StatusBroadcast(PowerStatus.unrestricted)
            let reader = LinuxPowerReader(
                sysfsRoot: sysfsRoot, clock: clock, rereadInterval: rereadInterval, broadcast: broadcast)
            self.broadcast = broadcast
            self.reader = reader
            // Open the socket before the first read, so no change falls between the two.
            var failure: UEventSocket.OpenError?
            if listensForUEvents {
                do throws(UEventSocket.OpenError) {
                    uevents = try openUEvents(reader.eventQueue) { datagrams, overflowed in
                        reader.handleOnQueue(datagrams: datagrams, overflowed: overflowed)
                    }
                } catch {
                    uevents = nil
                    failure = error
                    reader.rereadWithoutUEvents(every: Self.eventlessRereadInterval)
                }
            } else {
                uevents = nil
            }
            ueventFailure = failure
            reader.refresh()
            if let dbus {
                let source = PowerDaemonFollower(configuration: dbus) { [weak reader] facts in
                    reader?.update(dbus: facts)
                }
                source.start(waitingUpTo: dbus.initialWait)
                self.dbus = source
            } else {
                self.dbus = nil
            }
        }

        /// Why the kernel's uevents are not listened to and what is done instead; `nil` while they are.
        var fallbackNote: String? {
            ueventFailure.map { failure in
                "uevents: cannot listen (\(failure)); /sys/class/power_supply is re-read every "
                    + "\(Self.eventlessRereadInterval) instead"
            }
        }

        /// sysfs, power-profiles-daemon or UPower per field, with notes on the daemons.
        var provenance: PowerProvenance {
            var provenance = reader.provenance
            if let fallbackNote { provenance.notes.append(fallbackNote) }
            provenance.notes += dbus?.notes ?? ["power daemons: not consulted"]
            return provenance
        }

        /// Stops the daemons' source, the uevent socket and the sysfs reader.
        func stop() {
            dbus?.stop()
            uevents?.cancel()
            reader.stop()
        }
    }

    extension PowerObserver {
        /// Creates an observer of the machine's power supplies under `/sys`.
        public convenience init() {
            self.init(sysfsRoot: "/sys")
        }

        /// Creates an observer of the power supplies under `sysfsRoot`.
        ///
        /// sysfs is re-read on the kernel's `power_supply` uevents. Where the kernel refuses the uevent
        /// socket (a systemd unit whose `RestrictAddressFamilies=` leaves out `AF_NETLINK`, some sandboxes),
        /// it is re-read every 2 seconds instead, with or without a battery, and ``provenance`` says so in
        /// a note.
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
                dbus: DBusFollowerConfiguration())
        }

        /// Creates an observer; with `listensForUEvents` false no socket is opened, and changes come only
        /// from ``handleUEvent(_:)`` and the slow re-read (for tests). With `dbus` nil, no power daemon is
        /// consulted.
        package convenience init(
            sysfsRoot: String,
            clock: any Clock<Duration>,
            rereadInterval: Duration?,
            listensForUEvents: Bool,
            dbus: DBusFollowerConfiguration? = nil
        ) {
            self.init(
                backend: LinuxPowerBackend(
                    sysfsRoot: sysfsRoot, clock: clock, rereadInterval: rereadInterval,
                    listensForUEvents: listensForUEvents, dbus: dbus))
        }

        /// Feeds one uevent datagram as if the kernel had sent it; re-reads sysfs when it is a
        /// `power_supply` event. Returns after the new status (if any) is published.
        ///
        /// - Returns: whether the datagram caused a re-read.
        @discardableResult
        package func handleUEvent(_ bytes: [UInt8]) -> Bool {
            backend(as: LinuxPowerBackend.self).reader.handle(datagrams: [bytes], overflowed: false)
        }

        /// Re-reads sysfs as after a lost event (a receive-buffer overflow) and returns when published.
        package func handleUEventOverflow() {
            backend(as: LinuxPowerBackend.self).reader.handle(datagrams: [], overflowed: true)
        }

        /// Why the kernel's uevents are not listened to and what is done instead, when the kernel refused
        /// their socket (a note of ``provenance`` then); `nil` while they are, or none was asked for.
        package var kernelRefusal: String? { backend(as: LinuxPowerBackend.self).fallbackNote }

        /// Whether the kernel uevent socket is open.
        package var isListeningForUEvents: Bool { backend(as: LinuxPowerBackend.self).uevents != nil }

        /// Whether the slow re-read timer exists, which it does only while a system battery exists.
        package var isRereadTimerArmed: Bool { backend(as: LinuxPowerBackend.self).reader.isRereadTimerArmed }
    }
#endif
