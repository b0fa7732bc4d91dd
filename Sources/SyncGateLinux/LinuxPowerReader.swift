import SyncGateCore

#if os(Linux)
    import Dispatch
    import SyncGateWire

    /// The Linux engine behind ``PowerObserver``: reads `/sys/class/power_supply`, re-reads it when the
    /// kernel announces a `power_supply` uevent, and, while a system battery exists, once per re-read
    /// interval.
    ///
    /// Every read and publish runs on one private serial queue, so statuses are published in the order
    /// they were read. The re-read timer is a task sleeping on the injected clock; it exists only while
    /// the last read found a system battery, so a machine without one has nothing that wakes up.
    package final class LinuxPowerReader: Sendable {
        private struct State {
            /// The task that re-reads every ``rereadInterval``; `nil` while there is no system battery.
            var rereadTask: Task<Void, Never>?
            /// Whether a re-read stands in for the kernel's uevents, which cannot be listened to (see
            /// ``rereadWithoutUEvents(every:)``); the battery rule then no longer arms or disarms the timer.
            var rereadsWithoutUEvents = false
            /// Set by ``stop()``: no timer is armed afterwards.
            var isStopped = false
            /// The last status read from sysfs, before the D-Bus facts are merged in.
            var sysfs = PowerStatus.unrestricted
            /// Whether the last sysfs read found any system-scoped supply.
            var sysfsHasSupplies = false
            /// The power daemons' facts from D-Bus.
            var dbus = PowerDBusFacts.none
            /// Where the published fields come from.
            var provenance = PowerMapping.merge(sysfs: .unrestricted, sysfsHasSupplies: false, dbus: .none).provenance
        }

        /// The directory that contains `class/power_supply`, normally `/sys`.
        package let sysfsRoot: String
        private let clock: any Clock<Duration>
        private let rereadInterval: Duration?
        private let broadcast: StatusBroadcast<PowerStatus>
        private let queue = DispatchQueue(label: "SyncGate.PowerObserver")
        private let state = LockedState(State())

        /// Creates the reader; nothing is read until ``refresh()``.
        ///
        /// - Parameter rereadInterval: the period of the slow re-read while a system battery exists;
        ///   `nil` disables it. Must be positive.
        package init(
            sysfsRoot: String,
            clock: any Clock<Duration>,
            rereadInterval: Duration?,
            broadcast: StatusBroadcast<PowerStatus>
        ) {
            if let rereadInterval {
                precondition(rereadInterval > .zero, "PowerObserver: rereadInterval \(rereadInterval) is not positive")
            }
            self.sysfsRoot = sysfsRoot
            self.clock = clock
            self.rereadInterval = rereadInterval
            self.broadcast = broadcast
        }

        /// The queue on which the uevent socket delivers and every read runs.
        package var eventQueue: DispatchQueue { queue }

        /// Whether the slow re-read timer exists (a system battery was found by the last read).
        package var isRereadTimerArmed: Bool {
            state.withLock { $0.rereadTask != nil }
        }

        /// Reads sysfs now, on the reader's queue, publishes the status if it changed, and arms or
        /// disarms the re-read timer. Returns when done.
        package func refresh() {
            queue.sync { rereadOnQueue() }
        }

        /// Handles the datagrams of one wake-up of the uevent socket: re-reads once when any of them is
        /// a `power_supply` uevent or when events were lost to an overflow. Must run on ``eventQueue``.
        ///
        /// - Returns: whether it re-read.
        @discardableResult
        package func handleOnQueue(datagrams: [[UInt8]], overflowed: Bool) -> Bool {
            dispatchPrecondition(condition: .onQueue(queue))
            let relevant =
                overflowed
                || datagrams.contains { UEventMessage(bytes: $0)?.isPowerSupplyEvent == true }
            if relevant {
                rereadOnQueue()
            }
            return relevant
        }

        /// Handles datagrams as ``handleOnQueue(datagrams:overflowed:)`` does, from any thread, and
        /// returns when the re-read (if any) is published.
        @discardableResult
        package func handle(datagrams: [[UInt8]], overflowed: Bool) -> Bool {
            queue.sync { handleOnQueue(datagrams: datagrams, overflowed: overflowed) }
        }

        /// Merges new facts from the power daemons on D-Bus and publishes the result; returns when published.
        func update(dbus facts: PowerDBusFacts) {
            queue.sync {
                state.withLock { $0.dbus = facts }
                publishOnQueue()
            }
        }

        /// Where the published fields come from now.
        package var provenance: PowerProvenance { state.withLock { $0.provenance } }

        /// Re-reads every `interval` from now on, whether or not a system battery exists: what stands in for
        /// the kernel's uevents where their socket cannot be opened.
        package func rereadWithoutUEvents(every interval: Duration) {
            let stale: Task<Void, Never>? = state.withLock { state in
                guard !state.isStopped else { return nil }
                state.rereadsWithoutUEvents = true
                defer { state.rereadTask = makeRereadTask(interval: interval) }
                return state.rereadTask
            }
            stale?.cancel()
        }

        /// Disarms the timer for good. Later reads may still run but publish into a finished broadcast.
        package func stop() {
            let task = state.withLock { state in
                state.isStopped = true
                defer { state.rereadTask = nil }
                return state.rereadTask
            }
            task?.cancel()
        }

        private func rereadOnQueue() {
            let supplies = PowerSupplyReader.readSupplies(sysfsRoot: sysfsRoot)
            state.withLock { state in
                state.sysfs = PowerStatus(powerSupplies: supplies)
                state.sysfsHasSupplies = supplies.contains { !$0.isDeviceScoped }
            }
            publishOnQueue()
            updateTimer(hasSystemBattery: supplies.contains(where: \.isSystemBattery))
        }

        private func publishOnQueue() {
            let status = state.withLock { state in
                let (status, provenance) = PowerMapping.merge(
                    sysfs: state.sysfs, sysfsHasSupplies: state.sysfsHasSupplies, dbus: state.dbus)
                state.provenance = provenance
                return status
            }
            broadcast.send(status)
        }

        private func updateTimer(hasSystemBattery: Bool) {
            guard let rereadInterval else { return }
            let stale: Task<Void, Never>? = state.withLock { state in
                guard !state.isStopped, !state.rereadsWithoutUEvents else { return nil }
                switch (hasSystemBattery, state.rereadTask) {
                case (true, nil):
                    state.rereadTask = makeRereadTask(interval: rereadInterval)
                    return nil
                case (false, let task?):
                    state.rereadTask = nil
                    return task
                default:
                    return nil
                }
            }
            stale?.cancel()
        }

        private func makeRereadTask(interval: Duration) -> Task<Void, Never> {
            Task { [weak self, clock] in
                while true {
                    do {
                        try await clock.sleep(forAny: interval)
                    } catch {
                        return
                    }
                    guard let self else { return }
                    queue.async { self.rereadOnQueue() }
                }
            }
        }
    }
#endif
