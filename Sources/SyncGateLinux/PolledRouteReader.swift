import SyncGateCore
import SyncGateWire

#if os(Linux)
    /// Follows the default route by reading the kernel's main routing table from `/proc` at a fixed
    /// interval: the connectivity source of a ``ConnectivityObserver`` whose rtnetlink sockets the kernel
    /// refused.
    ///
    /// Each reading takes the route the kernel prefers among the IPv4 default routes
    /// (``DefaultRouteTable``), then among the IPv6 ones, and judges its interface from sysfs as the
    /// rtnetlink reader judges a link (``ConnectivityEvaluator``, ``LinuxInterfaceKind``): up, with a
    /// carrier, not loopback, operational state up or unknown. A change is seen up to one interval late,
    /// and policy routing (`ip rule`) is not followed.
    ///
    /// A reading that gains a network requirement and loses none is reported at once. Any other change (a
    /// loss) is read again after ``lossConfirmation``, and that second reading is reported: a route that
    /// goes and comes back within it is never reported lost, as the rtnetlink reader's debounce window
    /// absorbs a short flap.
    package final class PolledRouteReader: Sendable {
        /// The status of the latest reading.
        package let broadcast: StatusBroadcast<ConnectivityStatus>
        /// How long it waits between readings.
        package let interval: Duration
        /// How long after a reading that is not a gain it reads again before reporting; zero reports every
        /// reading as it is.
        package let lossConfirmation: Duration
        private let state: LockedState<State>

        private struct State {
            var task: Task<Void, Never>?
            /// Why the latest reading could not read the IPv4 table; `nil` when it could.
            var problem: String?
        }

        /// Reads the tables once, then again every `interval` on `clock` until ``stop()``.
        ///
        /// - Parameters:
        ///   - lossConfirmation: how long after a reading that is not a gain it reads again, reporting that
        ///     second reading (see the type's discussion); zero reports each reading as it is.
        ///   - procRoot: where procfs is mounted; the tables are `net/route` and `net/ipv6_route` below it.
        ///   - sysfsRoot: where sysfs is mounted; interfaces are read below `class/net/`.
        package init(
            interval: Duration = .seconds(1), lossConfirmation: Duration = .milliseconds(200),
            procRoot: String = "/proc", sysfsRoot: String = "/sys", clock: any Clock<Duration> = ContinuousClock()
        ) {
            self.interval = interval
            self.lossConfirmation = lossConfirmation
            let first = Self.read(procRoot: procRoot, sysfsRoot: sysfsRoot)
            let broadcast = StatusBroadcast(first.status)
            let state = LockedState(State(problem: first.problem))
            self.broadcast = broadcast
            self.state = state
            let task = Task {
                while true {
                    do { try await clock.sleep(for: interval) } catch { return }
                    var reading = Self.read(procRoot: procRoot, sysfsRoot: sysfsRoot)
                    let published = broadcast.value
                    if lossConfirmation > .zero, reading.status != published,
                        !ConnectivityDebounce.isGain(reading.status, over: published)
                    {
                        do { try await clock.sleep(for: lossConfirmation) } catch { return }
                        reading = Self.read(procRoot: procRoot, sysfsRoot: sysfsRoot)
                    }
                    state.withLock { $0.problem = reading.problem }
                    broadcast.send(reading.status)
                }
            }
            state.withLock { $0.task = task }
        }

        deinit {
            stop()
        }

        /// Why the latest reading could not read the IPv4 table, such as
        /// `cannot read /proc/net/route: Permission denied (errno 13)`; `nil` when it could.
        package var problem: String? { state.withLock { $0.problem } }

        /// Stops reading; the broadcast keeps its last status.
        package func stop() {
            state.withLock { $0.task.take() }?.cancel()
        }

        /// The status a reading found, and why the IPv4 table could not be read, if it could not.
        package typealias Reading = (status: ConnectivityStatus, problem: String?)

        /// One reading: the status of the path through the preferred default route, IPv4 first, and why
        /// the IPv4 table could not be read, if it could not (an absent IPv6 table is a kernel without IPv6).
        package static func read(procRoot: String, sysfsRoot: String) -> Reading {
            var problem: String?
            let tables: [(file: String, routes: (String) -> [DefaultRouteTable.Route])] = [
                ("/net/route", DefaultRouteTable.ipv4Routes(in:)),
                ("/net/ipv6_route", DefaultRouteTable.ipv6Routes(in:)),
            ]
            for (offset, table) in tables.enumerated() {
                let text: String
                switch DefaultRouteTable.read(procRoot + table.file) {
                case .success(let read): text = read
                case .failure(let error):
                    if offset == 0 { problem = error.description }
                    continue
                }
                guard let name = DefaultRouteTable.preferred(table.routes(text))?.carrier,
                    let link = link(named: name, sysfsRoot: sysfsRoot), link.isUsable
                else { continue }
                let facts = SysfsInterfaceFacts.read(
                    interface: name, sysfsRoot: sysfsRoot, hardwareType: Int(link.hardwareType))
                return (ConnectivityEvaluator.status(through: link, kind: LinuxInterfaceKind.classify(facts)), problem)
            }
            return (.disconnected, problem)
        }

        /// The link record of interface `name` as sysfs shows it (`ifindex`, `flags`, `carrier`,
        /// `operstate`, `type`), or `nil` when it has no `ifindex` or `flags` (it is gone).
        ///
        /// sysfs's `flags` lack `IFF_RUNNING` and `IFF_LOWER_UP`; a `carrier` of 1 stands for both (reading
        /// it fails while the interface is down).
        package static func link(named name: String, sysfsRoot: String) -> NetlinkLink? {
            let directory = sysfsRoot + "/class/net/" + name + "/"
            let field = { (file: String) in PowerSupplyReader.readAttribute(directory + file) }
            guard let index = field("ifindex").flatMap({ Int32($0) }),
                let flagsText = field("flags"), flagsText.hasPrefix("0x"),
                var flags = UInt32(flagsText.dropFirst(2), radix: 16)
            else { return nil }
            if field("carrier") == "1" {
                flags |= Netlink.InterfaceFlag.running | Netlink.InterfaceFlag.lowerUp
            }
            let operationalState: UInt8? =
                switch field("operstate") {
                case "up": Netlink.OperationalState.up
                case "unknown", nil: Netlink.OperationalState.unknown
                default: Netlink.OperationalState.down
                }
            return NetlinkLink(
                index: index, hardwareType: field("type").flatMap { UInt16($0) } ?? 1, flags: flags, name: name,
                operationalState: operationalState)
        }
    }

#endif
