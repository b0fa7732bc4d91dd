#if os(Linux)
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #endif
    import SyncGateWire

    /// The reader thread's state and event loop: sockets, link cache, debounce, evaluation.
    ///
    /// Built on the caller's thread (which computes the first status), then handed to the reader thread,
    /// which alone touches it afterwards. Every netlink message is only a hint that something changed;
    /// the answer always comes from fresh route lookups (`RTM_F_FIB_MATCH`) plus the link cache. A route
    /// message makes only its own family's probe stale (the IPv4 and IPv6 FIBs are separate); a link
    /// message, a lost or malformed datagram, and a lookup that got no answer make both stale, and only
    /// stale probes are looked up again.
    final class ConnectivityReaderLoop {
        /// The mailbox shared with the owner and the timer tasks.
        let signal: ConnectivityReaderSignal
        /// The status from the latest evaluation.
        private(set) var status: ConnectivityStatus
        /// Where evaluations are published; set before the thread starts.
        var broadcast: StatusBroadcast<ConnectivityStatus>?

        private let configuration: ConnectivityReaderConfiguration
        private let events: NetlinkSocket
        private let queries: NetlinkQueryClient
        private var links: [Int32: NetlinkLink] = [:]
        private var kinds: [Int32: LinuxInterfaceKind] = [:]
        private var debounce: ConnectivityDebounce
        private var needsLinkDump = true
        /// Both probe lookups, IPv4 then IPv6, prepared once to be sent in one datagram.
        private var bothProbes: RouteLookupBatch?
        /// The IPv4 probe lookup alone.
        private var ipv4Probe: RouteLookupBatch?
        /// The IPv6 probe lookup alone.
        private var ipv6Probe: RouteLookupBatch?
        /// The latest answer of each probe lookup.
        private var lookups = (ipv4: RouteLookupResult.noAnswer, ipv6: RouteLookupResult.noAnswer)
        /// Which probes must be looked up again at the next evaluation.
        private var stale = (ipv4: true, ipv6: true)

        /// Opens the sockets (events first, so nothing is missed between dump and subscription), dumps the
        /// links and evaluates the first status.
        init(configuration: ConnectivityReaderConfiguration) throws(ConnectivityObserverError) {
            self.configuration = configuration
            debounce = ConnectivityDebounce(isImmediate: configuration.debounce <= .zero)
            events = try NetlinkSocket(
                groups: Netlink.Group.link | Netlink.Group.ipv4Route | Netlink.Group.ipv6Route,
                receiveBufferSize: configuration.receiveBufferSize,
                bufferSize: 64 * 1024
            )
            queries = try NetlinkQueryClient()
            signal = try ConnectivityReaderSignal()
            status = .disconnected
            bothProbes = RouteLookupBatch(destinations: [configuration.ipv4Probe, configuration.ipv6Probe])
            ipv4Probe = RouteLookupBatch(destinations: [configuration.ipv4Probe])
            ipv6Probe = RouteLookupBatch(destinations: [configuration.ipv6Probe])
            guard refreshLinks() else {
                signal.requestStop()
                closeDescriptors()
                throw ConnectivityObserverError(operation: "link dump", code: 0)
            }
            status = evaluate()
        }

        /// The descriptors this loop owns: event socket, request socket, wake-up pipe.
        var fileDescriptors: [Int32] {
            [events.fileDescriptor, queries.fileDescriptor, signal.readDescriptor]
                + (signal.writeDescriptor.map { [$0] } ?? [])
        }

        /// Closes the sockets and the pipe's read end.
        func closeDescriptors() {
            events.close()
            queries.close()
            closeDescriptor(signal.readDescriptor)
        }

        /// Runs until a stop is requested, then closes the descriptors. Blocks in `poll` while idle.
        func run() {
            defer { closeDescriptors() }
            var descriptors = [
                pollfd(fd: events.fileDescriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: signal.readDescriptor, events: Int16(POLLIN), revents: 0),
            ]
            while !signal.isStopRequested {
                descriptors[0].revents = 0
                descriptors[1].revents = 0
                let ready = poll(&descriptors, 2, -1)
                if ready < 0 && errno != EINTR { break }
                guard ready > 0 else { continue }
                var evaluateNow = false
                if descriptors[1].revents != 0 {
                    let mail = signal.take()
                    if mail.isStopRequested { return }
                    for generation in mail.firedGenerations {
                        evaluateNow = perform(debounce.timerFired(generation: generation)) || evaluateNow
                    }
                }
                if descriptors[0].revents != 0, drainEvents() {
                    evaluateNow = perform(debounce.hintsReceived()) || evaluateNow
                }
                if evaluateNow {
                    publish(evaluate())
                }
            }
        }

        /// Reads the pending datagrams (a bounded batch) and updates the link cache.
        /// - Returns: whether anything relevant changed.
        private func drainEvents() -> Bool {
            var sawHint = false
            for _ in 0..<256 {
                switch events.receive() {
                case .datagram(let bytes):
                    let datagram = NetlinkMessage.parse(bytes)
                    if datagram.isMalformed {
                        needsLinkDump = true
                        stale = (true, true)
                        sawHint = true
                    }
                    for message in datagram.messages where apply(message) {
                        sawHint = true
                    }
                case .overflow:
                    needsLinkDump = true
                    stale = (true, true)
                    sawHint = true
                case .ignored:
                    continue
                case .wouldBlock:
                    return sawHint
                case .failed:
                    needsLinkDump = true
                    stale = (true, true)
                    return true
                }
            }
            return sawHint
        }

        /// Applies one event message to the link cache. Returns whether it is a hint worth evaluating.
        private func apply(_ message: NetlinkMessage) -> Bool {
            if message.reportsOverflow {
                needsLinkDump = true
                stale = (true, true)
                return true
            }
            switch message.type {
            case Netlink.MessageType.newLink:
                guard let link = NetlinkLink.decode(message), !link.isWirelessChatter else { return false }
                links[link.index] = link
                kinds[link.index] = nil
                stale = (true, true)
                return true
            case Netlink.MessageType.deleteLink:
                guard let link = NetlinkLink.decode(message) else { return false }
                links[link.index] = nil
                kinds[link.index] = nil
                stale = (true, true)
                return true
            case Netlink.MessageType.newRoute, Netlink.MessageType.deleteRoute:
                // `rtm_family`, the payload's first byte, says which FIB changed.
                switch message.payload.first {
                case Netlink.familyIPv4: stale.ipv4 = true
                case Netlink.familyIPv6: stale.ipv6 = true
                default: stale = (true, true)
                }
                return true
            default:
                return false
            }
        }

        /// Performs a debounce action; returns whether it asks for an evaluation now.
        private func perform(_ action: ConnectivityDebounce.Action) -> Bool {
            switch action {
            case .none:
                return false
            case .evaluate:
                return true
            case .armTimer(let generation):
                let sleep = configuration.clock.sleeper(for: configuration.debounce)
                let signal = self.signal
                signal.setTimer(
                    Task.detached {
                        do { try await sleep() } catch { return }
                        signal.timerFired(generation: generation)
                    }
                )
                return false
            }
        }

        /// Re-dumps the links into the cache. Returns whether a consistent dump was read.
        private func refreshLinks() -> Bool {
            guard let dumped = queries.dumpLinks() else { return false }
            links = dumped
            kinds = [:]
            needsLinkDump = false
            return true
        }

        /// Looks up both probe routes and decides the status from them and the link cache.
        private func evaluate() -> ConnectivityStatus {
            let resynced = needsLinkDump && refreshLinks()
            signal.count(resynced: resynced)
            let (ipv4, ipv6) = lookupStaleProbes()
            for index in (ipv4.route?.candidateInterfaces ?? []) + (ipv6.route?.candidateInterfaces ?? [])
            where links[index] == nil {
                links[index] = queries.link(index: index)
            }
            return ConnectivityEvaluator.status(ipv4: ipv4, ipv6: ipv6, links: links) { link in
                kind(of: link)
            }
        }

        /// Looks up the stale probes (both in one exchange when both are) and returns the latest answers;
        /// a probe that got no answer stays stale.
        private func lookupStaleProbes() -> (ipv4: RouteLookupResult, ipv6: RouteLookupResult) {
            switch stale {
            case (true, true):
                if let results = Self.lookup(&bothProbes, queries) {
                    lookups = (results[0], results[1])
                } else {
                    lookups.ipv4 = Self.lookup(&ipv4Probe, queries)?[0] ?? .noAnswer
                    lookups.ipv6 = Self.lookup(&ipv6Probe, queries)?[0] ?? .noAnswer
                }
            case (true, false):
                lookups.ipv4 = Self.lookup(&ipv4Probe, queries)?[0] ?? .noAnswer
            case (false, true):
                lookups.ipv6 = Self.lookup(&ipv6Probe, queries)?[0] ?? .noAnswer
            case (false, false):
                break
            }
            stale = (Self.isMissing(lookups.ipv4), Self.isMissing(lookups.ipv6))
            return lookups
        }

        /// Runs a prepared batch on `queries`; `nil` when there is none (a probe of a bad length).
        private static func lookup(_ batch: inout RouteLookupBatch?, _ queries: NetlinkQueryClient)
            -> [RouteLookupResult]?
        {
            guard var prepared = batch else { return nil }
            batch = nil  // keeps the prepared bytes uniquely referenced while they are renumbered
            defer { batch = prepared }
            return queries.lookupRoutes(&prepared)
        }

        private static func isMissing(_ result: RouteLookupResult) -> Bool {
            if case .noAnswer = result { return true }
            return false
        }

        private func kind(of link: NetlinkLink) -> LinuxInterfaceKind {
            if let kind = kinds[link.index] { return kind }
            let facts = SysfsInterfaceFacts.read(
                interface: link.name ?? "",
                sysfsRoot: configuration.sysfsRoot,
                linkKind: link.kind,
                hardwareType: Int(link.hardwareType)
            )
            let kind = LinuxInterfaceKind.classify(facts)
            kinds[link.index] = kind
            return kind
        }

        private func publish(_ status: ConnectivityStatus) {
            self.status = status
            broadcast?.send(status)
        }
    }
#endif
