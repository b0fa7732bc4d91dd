import SyncGateCore

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
    /// the answer comes from fresh route lookups (`RTM_F_FIB_MATCH`) plus the link cache.
    ///
    /// One hint comes early: the kernel announces an IPv4 route's removal (`RTM_DELROUTE`) just before it
    /// takes the entry out of its table, so a lookup made at once, on another CPU, can still find the
    /// entry being removed. The loop remembers the entries announced as removed until a lookup no longer
    /// answers with one of them: it looks again at once a few times, then on a short poll timeout, so the
    /// status never stays on a route that is gone (``staleLookupLimit``).
    ///
    /// One answer comes early: while the network is down, a new default route that the next lookup is
    /// bound to find is published from its announcement, before that lookup, whose answer follows at once
    /// (``ConnectivityEarlyGain``). Routing policy rules are followed for it (dumped when they change, after
    /// the turn's status is out), and a rule's change is a hint like a route's.
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
        /// Whether a link was learned or changed since the last ``classifyUsableLinks()``.
        private var hasUnclassifiedLinks = true
        private var debounce: ConnectivityDebounce
        private var needsLinkDump = true
        /// The last answers of the two probe lookups, and whether a hint since may have changed them: a
        /// route message changes only its own family's answer, a link message or a lost message both.
        private var ipv4Lookup = RouteLookupResult.noAnswer
        private var ipv6Lookup = RouteLookupResult.noAnswer
        private var ipv4NeedsLookup = true
        private var ipv6NeedsLookup = true
        /// Entries announced by `RTM_DELROUTE` that no lookup has confirmed gone yet.
        private var removedEntries: Set<NetlinkRoute.EntryKey> = []
        /// Whether the last evaluation still found a removed entry, so the loop evaluates again soon.
        private var recheckPending = false
        /// What the recheck may publish: what the evaluation that asked for it could. A recheck after an
        /// early evaluation publishes only a gain, so a loss still waits for the window.
        private var recheckEvaluation = Evaluation.publish
        /// The debounce timer this turn arms (its generation), once the turn's status is out.
        private var timerToArm: UInt64?
        /// How many rechecks in a row have still found a removed entry.
        private var rechecks = 0
        /// Both probe lookups, IPv4 then IPv6, prepared once to be sent in one datagram.
        private var bothProbes: RouteLookupBatch?
        /// The IPv4 probe lookup alone, prepared once.
        private var ipv4Probe: RouteLookupBatch?
        /// The IPv6 probe lookup alone, prepared once.
        private var ipv6Probe: RouteLookupBatch?
        /// The families whose routing policy rules the last dump found plain
        /// (``ConnectivityEarlyGain/rulesAllow(_:family:)``); none while a rule changed since, or when no
        /// dump could be read (no early gain then).
        private var plainRuleFamilies: Set<UInt8> = []
        /// Whether a rule changed since the last dump, so the turn's tail dumps them again.
        private var rulesChanged = true
        /// The first default route announced by the datagrams drained this turn, while every message they
        /// held announced a route (any other message leaves the turn to the lookups alone).
        private var announcedRoute: NetlinkRoute?
        /// Whether every message drained this turn announced a new route. A lost or malformed message is
        /// not counted here: it asks for a link dump (``needsLinkDump``), which holds an early gain back too.
        private var drainedOnlyNewRoutes = true

        /// Immediate lookups made again, in one evaluation, while a lookup answers with a removed entry.
        static let immediateRetries = 8
        /// Rechecks (one per millisecond of poll timeout) before the loop accepts what the lookups say: the
        /// kernel takes an announced entry out within microseconds unless its thread is preempted.
        static let staleLookupLimit = 1_000

        /// Opens the sockets (events first, so nothing is missed between dump and subscription), dumps the
        /// links and evaluates the first status.
        init(configuration: ConnectivityReaderConfiguration) throws(ConnectivityObserverError) {
            self.configuration = configuration
            debounce = ConnectivityDebounce(isImmediate: configuration.debounce <= .zero)
            events = try NetlinkSocket(
                groups: Netlink.Group.link | Netlink.Group.ipv4Route | Netlink.Group.ipv6Route
                    | Netlink.Group.ipv4Rule | Netlink.Group.ipv6Rule,
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
            classifyUsableLinks()
            refreshRulesIfChanged()
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
                let ready = poll(&descriptors, 2, recheckPending ? 1 : -1)
                if ready < 0 && errno != EINTR { break }
                var evaluation = recheckPending && ready == 0 ? recheckEvaluation : .none
                guard ready > 0 || evaluation != .none else { continue }
                if descriptors[1].revents != 0 {
                    let mail = signal.take()
                    if mail.isStopRequested { return }
                    for generation in mail.firedGenerations {
                        evaluation = max(evaluation, perform(debounce.timerFired(generation: generation)))
                    }
                }
                if descriptors[0].revents != 0, drainEvents() {
                    let mayGain = ConnectivityDebounce.mayGain(over: status)
                    evaluation = max(evaluation, perform(debounce.hintsReceived(mayGain: mayGain)))
                }
                // A status published from an announcement is followed by the lookups' answer, whatever
                // the debounce asked for: it corrects the early one if they differ.
                let announced = publishEarlyGain(evaluating: evaluation != .none)
                switch evaluation {
                case .none:
                    break
                case .publishIfGain:
                    let candidate = evaluate()
                    recheckEvaluation = .publishIfGain
                    if announced || ConnectivityDebounce.isGain(candidate, over: status) { publish(candidate) }
                case .publish:
                    publish(evaluate())
                    recheckEvaluation = .publish
                }
                if let generation = timerToArm.take() { armTimer(generation: generation) }
                classifyUsableLinks()
                refreshRulesIfChanged()
            }
        }

        /// Publishes the status this turn's announced route gives, when the turn evaluates and
        /// ``ConnectivityEarlyGain`` allows one before the lookups; returns whether it published. The
        /// announcement is used up either way.
        private func publishEarlyGain(evaluating: Bool) -> Bool {
            guard let route = announcedRoute.take(), evaluating, drainedOnlyNewRoutes, !needsLinkDump,
                let early = ConnectivityEarlyGain.status(
                    announcedBy: route, published: status, ipv4: ipv4Lookup, ipv6: ipv6Lookup,
                    ipv4Pending: ipv4NeedsLookup, rulesAllow: { plainRuleFamilies.contains($0) },
                    links: links, kinds: kinds)
            else { return false }
            signal.countEarlyGain()
            publish(early)
            return true
        }

        /// Dumps the routing policy rules again after one changed, once the turn's status is out.
        private func refreshRulesIfChanged() {
            guard rulesChanged else { return }
            rulesChanged = false
            guard let rules = queries.dumpRules() else { return }
            plainRuleFamilies = Set(
                [Netlink.familyIPv4, Netlink.familyIPv6].filter { ConnectivityEarlyGain.rulesAllow(rules, family: $0) })
        }

        /// Classifies each usable link not classified yet, after this turn's status is out: reading its
        /// sysfs entries then costs nothing on the path from a route's appearance to the status (a route
        /// through a link that was just classified is decided from the cache).
        private func classifyUsableLinks() {
            guard hasUnclassifiedLinks else { return }
            hasUnclassifiedLinks = false
            for (index, link) in links where kinds[index] == nil && link.isUsable {
                _ = kind(of: link)
            }
        }

        /// Reads the pending datagrams (a bounded batch) and updates the link cache.
        /// - Returns: whether anything relevant changed.
        private func drainEvents() -> Bool {
            announcedRoute = nil
            drainedOnlyNewRoutes = true
            var sawHint = false
            for _ in 0..<256 {
                switch events.receive() {
                case .datagram(let bytes):
                    let datagram = NetlinkMessage.parse(bytes)
                    if datagram.isMalformed {
                        forgetEverything()
                        sawHint = true
                    }
                    for message in datagram.messages where apply(message) {
                        sawHint = true
                    }
                case .overflow:
                    forgetEverything()
                    sawHint = true
                case .ignored:
                    continue
                case .wouldBlock:
                    return sawHint
                case .failed:
                    forgetEverything()
                    return true
                }
            }
            return sawHint
        }

        /// Applies one event message to the link cache. Returns whether it is a hint worth evaluating.
        private func apply(_ message: NetlinkMessage) -> Bool {
            if message.reportsOverflow {
                forgetEverything()
                return true
            }
            if message.type != Netlink.MessageType.newRoute { drainedOnlyNewRoutes = false }
            switch message.type {
            case Netlink.MessageType.newLink:
                guard let link = NetlinkLink.decode(message), !link.isWirelessChatter else { return false }
                links[link.index] = link
                kinds[link.index] = nil
                hasUnclassifiedLinks = true
                lookUpBothFamilies()
                return true
            case Netlink.MessageType.deleteLink:
                guard let link = NetlinkLink.decode(message) else { return false }
                links[link.index] = nil
                kinds[link.index] = nil
                lookUpBothFamilies()
                return true
            case Netlink.MessageType.newRoute, Netlink.MessageType.deleteRoute:
                guard let route = NetlinkRoute.decode(message) else {
                    lookUpBothFamilies()
                    return true
                }
                if message.type == Netlink.MessageType.deleteRoute {
                    removedEntries.insert(route.entryKey)
                } else {
                    if !removedEntries.isEmpty { removedEntries.remove(route.entryKey) }
                    if announcedRoute == nil && route.destinationLength == 0 { announcedRoute = route }
                }
                switch route.family {
                case Netlink.familyIPv4: ipv4NeedsLookup = true
                case Netlink.familyIPv6: ipv6NeedsLookup = true
                default: lookUpBothFamilies()
                }
                return true
            case Netlink.MessageType.newRule, Netlink.MessageType.deleteRule:
                // A rule decides which table answers a lookup: both are looked up again, and the rules
                // are dumped again (until then, no early gain).
                plainRuleFamilies = []
                rulesChanged = true
                lookUpBothFamilies()
                return true
            default:
                return false
            }
        }

        /// What one turn of the loop does with an evaluation, in increasing order of what it publishes.
        private enum Evaluation: Comparable {
            /// No evaluation.
            case none
            /// Evaluate, and publish only a gain over the published status.
            case publishIfGain
            /// Evaluate and publish.
            case publish
        }

        /// Performs a debounce action; returns the evaluation it asks for now. A timer it asks for is armed
        /// after the turn's evaluation is published: creating the timer's task (and waking a thread for
        /// it) would otherwise delay a gained network's status.
        private func perform(_ action: ConnectivityDebounce.Action) -> Evaluation {
            switch action {
            case .none:
                return .none
            case .evaluate:
                return .publish
            case .armTimer(let generation):
                timerToArm = generation
                return .none
            case .evaluateForGain(let generation):
                if let generation { timerToArm = generation }
                return .publishIfGain
            }
        }

        /// Arms the debounce timer: a task that sleeps one window on the injected clock, then mails the
        /// generation to the loop.
        private func armTimer(generation: UInt64) {
            let sleep = configuration.clock.sleeper(for: configuration.debounce)
            let signal = self.signal
            signal.setTimer(
                Task.detached {
                    do { try await sleep() } catch { return }
                    signal.timerFired(generation: generation)
                }
            )
        }

        /// Re-dumps the links into the cache. Returns whether a consistent dump was read.
        private func refreshLinks() -> Bool {
            guard let dumped = queries.dumpLinks() else { return false }
            links = dumped
            kinds = [:]
            hasUnclassifiedLinks = true
            needsLinkDump = false
            return true
        }

        /// Looks up both probe routes and decides the status from them and the link cache.
        private func evaluate() -> ConnectivityStatus {
            let resynced = needsLinkDump && refreshLinks()
            signal.count(resynced: resynced)
            lookUpChangedFamilies()
            var stale = markFamiliesAnsweringWithRemovedEntries()
            if stale { signal.countStaleLookup() }
            for _ in 0..<Self.immediateRetries where stale {
                sched_yield()
                lookUpChangedFamilies()
                stale = markFamiliesAnsweringWithRemovedEntries()
            }
            let (ipv4, ipv6) = (ipv4Lookup, ipv6Lookup)
            if stale { rechecks += 1 }
            if !stale || rechecks >= Self.staleLookupLimit {
                removedEntries = []
                rechecks = 0
            }
            recheckPending = !removedEntries.isEmpty
            for index in (ipv4.route?.candidateInterfaces ?? []) + (ipv6.route?.candidateInterfaces ?? [])
            where links[index] == nil {
                links[index] = queries.link(index: index)
            }
            return ConnectivityEvaluator.status(ipv4: ipv4, ipv6: ipv6, links: links) { link in
                kind(of: link)
            }
        }

        private func lookUpBothFamilies() {
            ipv4NeedsLookup = true
            ipv6NeedsLookup = true
        }

        /// After a lost or malformed message nothing cached can be trusted: the links are dumped again and
        /// both probe routes looked up again at the next evaluation.
        private func forgetEverything() {
            needsLinkDump = true
            lookUpBothFamilies()
        }

        /// Looks the probe routes up again for the families a hint may have changed (both in one request
        /// datagram when both are); a family whose lookup got no answer stays marked, so the next
        /// evaluation asks again.
        private func lookUpChangedFamilies() {
            if ipv4NeedsLookup && ipv6NeedsLookup, let results = Self.lookup(&bothProbes, queries) {
                (ipv4Lookup, ipv6Lookup) = (results[0], results[1])
            } else {
                if ipv4NeedsLookup { ipv4Lookup = Self.lookup(&ipv4Probe, queries)?[0] ?? .noAnswer }
                if ipv6NeedsLookup { ipv6Lookup = Self.lookup(&ipv6Probe, queries)?[0] ?? .noAnswer }
            }
            if ipv4NeedsLookup { ipv4NeedsLookup = ipv4Lookup == .noAnswer }
            if ipv6NeedsLookup { ipv6NeedsLookup = ipv6Lookup == .noAnswer }
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

        /// Marks for another lookup each family whose answer is an entry that `RTM_DELROUTE` announced as
        /// removed; returns whether there was one.
        private func markFamiliesAnsweringWithRemovedEntries() -> Bool {
            guard !removedEntries.isEmpty else { return false }
            let isRemoved = { (lookup: RouteLookupResult) in
                lookup.route.map { self.removedEntries.contains($0.entryKey) } ?? false
            }
            let (ipv4Stale, ipv6Stale) = (isRemoved(ipv4Lookup), isRemoved(ipv6Lookup))
            ipv4NeedsLookup = ipv4NeedsLookup || ipv4Stale
            ipv6NeedsLookup = ipv6NeedsLookup || ipv6Stale
            return ipv4Stale || ipv6Stale
        }

        private func kind(of link: NetlinkLink) -> LinuxInterfaceKind {
            if let kind = kinds[link.index] { return kind }
            let facts = SysfsInterfaceFacts.read(
                interface: link.nameBytes ?? [],
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
