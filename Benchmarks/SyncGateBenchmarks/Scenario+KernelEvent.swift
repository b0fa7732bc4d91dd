#if os(Linux)
    import Foundation
    import Glibc
    import SyncGate
    import SyncGateWire
#endif

extension Scenario {
    /// Scenario 8: kernel event → ConnectivityObserver emission (debounce 0) in a network namespace, and
    /// the observer thread's context switches while nothing changes.
    static func runKernelEvent(_ sizes: BenchmarkOptions.Sizes) async throws -> ScenarioResult {
        var result = ScenarioResult(
            name: Scenario.kernel.name, number: 8,
            title: "kernel event → ConnectivityObserver emission (debounce 0)",
            measures: "the harness makes two network namespaces joined by a veth pair (v0 with the default route, "
                + "v1 its peer) and runs ConnectivityObserver(debounce: 0) on a thread inside the first. Route "
                + "flaps: one RTM_DELROUTE or RTM_NEWROUTE request for the default route on a netlink socket in "
                + "that namespace; carrier flaps: one RTM_NEWLINK setting v1 down or up from the second namespace. "
                + "The clock starts just before the request's sendto() and stops at the first instruction of a "
                + "synchronous observer of the observer's broadcast, on its reader thread, when the expected "
                + "status is published (netlink delivery, poll wake-up, two RTM_GETROUTE lookups, publication). "
                + "Baseline, same flaps: the poll wake-up of a bare netlink socket subscribed to link and IPv4 "
                + "route events in the same namespace, on its own thread, that brings the matching message. "
                + "Reference, the same flaps: that thread, after stamping a route message, sends one RTM_GETROUTE "
                + "lookup and stamps its reply (the least an observer that confirms the route with the kernel does). "
                + "The kernel wakes the socket subscribed last first; blocks of flaps alternate which side that is "
                + "(two blocks per round), and each placement is also shown on its own. "
                + "Then the observer thread's context switches (/proc/self/task/TID/status) over "
                + "\(sizes.idleSeconds) s with nothing changing"
        )
        #if os(Linux)
            if let reason = NetworkNamespacePair.unavailableReason {
                result.skipped = "skipped: " + reason
                return result
            }
            let measured: KernelEventMeasurement = try await withCheckedThrowingContinuation { continuation in
                let thread = Thread {
                    continuation.resume(with: Result { try KernelEventMeasurement(sizes: sizes) })
                }
                thread.start()
            }
            result.latencies.append(
                LatencyComparison(
                    subject: "observer emission, route flap", samples: measured.route.observer,
                    baseline: "bare socket wake-up, route flap", baselineSamples: measured.route.raw,
                    goals: [.init(percentile: "p99.9", atMost: 2.0)]
                )
            )
            if measured.route.rawLookup.count == measured.route.raw.count {
                result.latencies.append(
                    LatencyComparison(
                        subject: "bare socket wake-up + one route lookup", samples: measured.route.rawLookup,
                        baseline: "bare socket wake-up, route flap", baselineSamples: measured.route.raw, goals: []
                    )
                )
                result.latencies.append(
                    LatencyComparison(
                        subject: "observer emission, route flap", samples: measured.route.observer,
                        baseline: "bare socket wake-up + one route lookup", baselineSamples: measured.route.rawLookup,
                        goals: []
                    )
                )
            }
            // The placement's share, shown: each side where it is woken second against the other woken first.
            for (placement, series) in [
                ((observer: "woken first", bare: "woken second"), measured.observerFirst),
                ((observer: "woken second", bare: "woken first"), measured.listenerFirst),
            ] where !series.observer.isEmpty {
                result.latencies.append(
                    LatencyComparison(
                        subject: "observer emission (\(placement.observer))", samples: series.observer,
                        baseline: "bare socket wake-up (\(placement.bare))", baselineSamples: series.raw,
                        goals: []
                    )
                )
            }
            result.latencies.append(
                LatencyComparison(
                    subject: "observer emission, carrier flap", samples: measured.carrier.observer,
                    baseline: "bare socket wake-up, carrier flap", baselineSamples: measured.carrier.raw, goals: []
                )
            )
            let idle = sizes.idleSeconds
            result.figures += [
                Figure(
                    "observer thread voluntary context switches in \(idle) s idle", Double(measured.idleVoluntary),
                    unit: "switches", goal: "0 (no wake-ups while nothing changes)",
                    goalMet: measured.idleVoluntary == 0
                ),
                Figure(
                    "observer thread involuntary context switches in \(idle) s idle",
                    Double(measured.idleInvoluntary), unit: "switches"),
                Figure("observer evaluations in \(idle) s idle", Double(measured.idleEvaluations), unit: "evaluations"),
            ]
            let flaps = measured.route.observer.count + measured.carrier.observer.count
            result.checks.append(
                "each of the \(flaps) flaps produced the expected status (\(measured.emissions) emissions in all)")
            result.notes.append(
                "the kernel's linkwatch batches non-urgent carrier changes to at most one run per second, so a "
                    + "carrier flap soon after another reaches userspace up to 1 s late; the bare socket waits "
                    + "just as long, which is why the carrier figures are slow on both sides")
            result.notes.append(
                "\(measured.staleLookups) of the observer's evaluations found the route the kernel had just "
                    + "announced as removed (RTM_DELROUTE comes just before the entry leaves the table) and "
                    + "looked again")
            result.notes.append(
                "observer thread \(measured.observerThread) was blocked in system call \(measured.idleSyscall) "
                    + "(7 = poll on x86_64) during the idle period")
        #else
            result.skipped = "skipped: network namespaces exist only on Linux"
        #endif
        return result
    }
}

#if os(Linux)
    /// Scenario 8's measurements, taken on one dedicated thread that moves itself between namespaces.
    struct KernelEventMeasurement: Sendable {
        /// One series of flaps: the observer's latencies and the bare socket's, in nanoseconds.
        struct Series: Sendable {
            var observer: [Double] = []
            var raw: [Double] = []
            /// The bare socket's thread, after the same wake-up, sending one route lookup: its reply.
            var rawLookup: [Double] = []

            /// Appends another series' samples.
            mutating func append(_ other: Series) {
                observer += other.observer
                raw += other.raw
                rawLookup += other.rawLookup
            }
        }

        var route = Series()
        /// The route flaps of the blocks where the observer's socket was woken first, then the bare socket's.
        var observerFirst = Series()
        var listenerFirst = Series()
        var carrier = Series()
        var emissions = 0
        var idleVoluntary = 0
        var idleInvoluntary = 0
        var idleEvaluations = 0
        var staleLookups = 0
        var idleSyscall = "?"
        var observerThread = 0

        private static let scenario = Scenario.kernel.name
        /// The name the connectivity reader's thread gives itself.
        private static let observerName = "sg-netlink"
        static let gateway: [UInt8] = [10, 200, 0, 1]

        /// Builds the namespaces, flaps the route and the carrier, watches the idle observer, and tears
        /// everything down.
        init(sizes: BenchmarkOptions.Sizes) throws {
            let pair = try NetworkNamespacePair()
            defer { pair.destroy() }
            let homeDescriptor = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC)
            defer {
                if homeDescriptor >= 0 {
                    try? NetworkNamespacePair.enter(path: "/proc/self/fd/\(homeDescriptor)")
                    close(homeDescriptor)
                }
            }
            try NetworkNamespacePair.enter(pair.peer)
            let peerControl = try NetlinkSocket(groups: 0, receiveBufferSize: nil, bufferSize: 16 * 1024)
            defer { peerControl.close() }
            let peerIndex = Int32(if_nametoindex("v1"))
            try NetworkNamespacePair.enter(pair.observed)
            let control = try NetlinkSocket(groups: 0, receiveBufferSize: nil, bufferSize: 16 * 1024)
            defer { control.close() }
            let observedIndex = Int32(if_nametoindex("v0"))
            guard peerIndex > 0, observedIndex > 0 else { throw Self.failure("the veth ends are missing") }

            // The kernel hands a multicast message to the sockets of its group newest first, so the socket
            // subscribed last is woken first; on two CPUs the thread woken second often waits for a CPU (behind
            // the thread that sent the request, or a kernel thread the wake-up brought along). Blocks of flaps
            // alternate which of the two sockets is subscribed last, two blocks per round of the comparison,
            // so each side spends half of every round in each place.
            let blockFlaps = max(2, (2 * sizes.flaps / LatencyComparison.defaultRounds / 2) / 2 * 2)
            var remaining = 2 * sizes.flaps
            var sequence: UInt32 = 0
            var block = 0
            while remaining > 0 {
                let count = min(blockFlaps, remaining)
                remaining -= count
                let observerWokenFirst = block % 2 == 1
                block += 1
                try Self.withObserverAndListener(observerWokenFirst: observerWokenFirst, index: observedIndex) {
                    observer, observerThread, recorder, listener in
                    self.observerThread = observerThread
                    let series = try Self.flap(count, recorder: recorder, listener: listener) { up in
                        sequence += 1
                        try Self.setDefaultRoute(control, present: up, index: observedIndex, sequence: sequence)
                        return .defaultRoute(present: up)
                    }
                    route.append(series)
                    if observerWokenFirst { observerFirst.append(series) } else { listenerFirst.append(series) }
                    if remaining == 0 {
                        carrier = try Self.flap(2 * sizes.carrierFlaps, recorder: recorder, listener: listener) { up in
                            sequence += 1
                            try Self.setLink(peerControl, index: peerIndex, up: up, sequence: sequence)
                            return .link(usable: up)
                        }
                    }
                    emissions += recorder.total
                    staleLookups += observer.counters.staleLookups
                    if remaining == 0 { try watchIdle(observer, thread: observerThread, seconds: sizes.idleSeconds) }
                }
            }
        }

        /// Starts a ConnectivityObserver (debounce 0) and a bare socket in the calling thread's namespace, the
        /// one to be woken first subscribed last, and runs `body` with them, the observer's reader thread and
        /// a recorder of its emissions; the observer stops (its thread joined) when `body` returns.
        private static func withObserverAndListener(
            observerWokenFirst: Bool, index: Int32,
            _ body: (ConnectivityObserver, Int, EmissionRecorder, RawNetlinkListener) throws -> Void
        ) throws {
            var listener = observerWokenFirst ? try RawNetlinkListener(watching: index, lookingUp: true) : nil
            // The observer's reader thread names itself; it is the one that was not there before.
            let readersBefore = Set(ThreadCensus.threads(named: Self.observerName))
            let observer = try ConnectivityObserver(configuration: ConnectivityReaderConfiguration(debounce: .zero))
            ThreadCensus.nameCurrentThread("sgbench-driver")
            guard observer.status.isConnected else { throw Self.failure("the observer does not start connected") }
            let threads = Set(ThreadCensus.threads(named: Self.observerName)).subtracting(readersBefore)
            guard threads.count == 1, let observerThread = threads.first else {
                throw failure("expected one new thread named \(observerName), found \(threads.sorted())")
            }
            if listener == nil { listener = try RawNetlinkListener(watching: index, lookingUp: true) }
            guard let listener else { return }
            let recorder = EmissionRecorder()
            let token = observer.broadcast.addObserver { status in recorder.record(status.isConnected) }
            defer { observer.broadcast.removeObserver(token) }
            listener.start()
            defer { listener.stop() }
            try body(observer, observerThread, recorder, listener)
        }

        /// Counts the observer thread's context switches and evaluations over `seconds` with nothing changing.
        private mutating func watchIdle(_ observer: ConnectivityObserver, thread: Int, seconds: Int) throws {
            usleep(500_000)
            let evaluationsBefore = observer.counters.evaluations
            guard let before = ThreadCensus.contextSwitches(of: thread) else {
                throw Self.failure("cannot read the observer thread's status")
            }
            idleSyscall = ThreadCensus.blockingSyscall(of: thread) ?? "?"
            sleep(UInt32(seconds))
            guard let after = ThreadCensus.contextSwitches(of: thread) else {
                throw Self.failure("cannot read the observer thread's status")
            }
            idleVoluntary = after.voluntary - before.voluntary
            idleInvoluntary = after.involuntary - before.involuntary
            idleEvaluations = observer.counters.evaluations - evaluationsBefore
        }

        /// Runs `count` flaps, alternating down (odd) and up; `trigger` sends the kernel request and says
        /// which message the bare socket should see.
        private static func flap(
            _ count: Int, recorder: EmissionRecorder, listener: RawNetlinkListener,
            trigger: (Bool) throws -> RawNetlinkListener.News
        ) throws -> Series {
            var series = Series()
            for flap in 0..<count {
                let up = flap % 2 == 1
                recorder.reset()
                listener.reset()
                let start = ContinuousClock.now
                let expected = try trigger(up)
                guard let reached = recorder.waitForFirst(connected: up, within: .seconds(5)) else {
                    throw failure("no \(up ? "connected" : "disconnected") emission within 5 s of flap \(flap)")
                }
                let deadline = ContinuousClock.now + .seconds(5)
                var rawReached = listener.first(expected)
                while rawReached == nil, ContinuousClock.now < deadline {
                    usleep(100)
                    rawReached = listener.first(expected)
                }
                guard let rawReached else {
                    throw failure("the bare socket saw no \(expected) within 5 s of flap \(flap)")
                }
                usleep(2_000)  // let trailing events (IPv6 routes, ACKs) settle before the next flap
                series.observer.append(start.duration(to: reached).nanoseconds)
                series.raw.append(start.duration(to: rawReached).nanoseconds)
                if let looked = listener.firstLookup(expected) {
                    series.rawLookup.append(start.duration(to: looked).nanoseconds)
                }
            }
            return series
        }

        private static func failure(_ message: String) -> BenchmarkFailure {
            BenchmarkFailure(scenario: scenario, message: message)
        }

        /// Adds or deletes the IPv4 default route via 10.200.0.1 on `index`, and waits for the kernel's ACK.
        static func setDefaultRoute(_ socket: NetlinkSocket, present: Bool, index: Int32, sequence: UInt32)
            throws
        {
            // rtmsg: family, dst_len, src_len, tos, table (main), protocol (boot), scope (universe), type (unicast), flags
            var payload: [UInt8] = [UInt8(Netlink.familyIPv4), 0, 0, 0, 254, present ? 3 : 0, 0, 1, 0, 0, 0, 0]
            NetlinkBytes.append(UInt16(8), to: &payload)
            NetlinkBytes.append(UInt16(5), to: &payload)  // RTA_GATEWAY
            payload += gateway
            NetlinkBytes.append(UInt16(8), to: &payload)
            NetlinkBytes.append(UInt16(4), to: &payload)  // RTA_OIF
            NetlinkBytes.append(index, to: &payload)
            let create: UInt16 = 0x400 | 0x200  // NLM_F_CREATE | NLM_F_EXCL
            try request(
                socket,
                NetlinkMessage(
                    type: present ? Netlink.MessageType.newRoute : Netlink.MessageType.deleteRoute,
                    flags: Netlink.MessageFlag.request | Netlink.MessageFlag.ack | (present ? create : 0),
                    sequence: sequence,
                    payload: payload
                ),
                what: present ? "RTM_NEWROUTE" : "RTM_DELROUTE"
            )
        }

        /// Sets a link administratively up or down and waits for the kernel's ACK.
        private static func setLink(_ socket: NetlinkSocket, index: Int32, up: Bool, sequence: UInt32) throws {
            var payload = [UInt8](repeating: 0, count: 16)
            NetlinkBytes.store(index, into: &payload, at: 4)
            NetlinkBytes.store(up ? Netlink.InterfaceFlag.up : 0, into: &payload, at: 8)
            NetlinkBytes.store(Netlink.InterfaceFlag.up, into: &payload, at: 12)
            try request(
                socket,
                NetlinkMessage(
                    type: Netlink.MessageType.newLink,
                    flags: Netlink.MessageFlag.request | Netlink.MessageFlag.ack,
                    sequence: sequence,
                    payload: payload
                ),
                what: "RTM_NEWLINK"
            )
        }

        private static func request(_ socket: NetlinkSocket, _ message: NetlinkMessage, what: String) throws {
            if let code = socket.send(message.bytes) { throw failure("send \(what): errno \(code)") }
            while socket.waitReadable(milliseconds: 2_000) {
                if case .datagram(let bytes) = socket.receive(),
                    let ack = NetlinkMessage.parse(bytes).messages.first(where: { $0.sequence == message.sequence }),
                    let code = ack.errorCode
                {
                    if code != 0 { throw failure("\(what): errno \(code)") }
                    return
                }
            }
            throw failure("no ACK for \(what)")
        }
    }

    /// Collects the observer's emissions, stamped on the observer's thread, for the flap being measured.
    final class EmissionRecorder: Sendable {
        private let emissions = LockedState<[(instant: ContinuousClock.Instant, connected: Bool)]>([])
        private let counted = LockedState(0)
        private let emitted = DispatchSemaphore(value: 0)

        /// Records one emission; called synchronously by the observer's broadcast.
        func record(_ connected: Bool) {
            let now = ContinuousClock.now
            emissions.withLock { $0.append((now, connected)) }
            counted.withLock { $0 += 1 }
            emitted.signal()
        }

        /// How many emissions have been recorded in all.
        var total: Int { counted.withLock { $0 } }

        /// Forgets the emissions of the previous flap.
        func reset() {
            emissions.withLock { $0 = [] }
            while emitted.wait(timeout: .now()) == .success {}
        }

        /// Blocks until an emission with the given connectivity arrives; its instant, or `nil` on timeout.
        func waitForFirst(connected: Bool, within limit: Duration) -> ContinuousClock.Instant? {
            let deadline = DispatchTime.now() + .nanoseconds(Int(limit.nanoseconds))
            while true {
                if let instant = emissions.withLock({ $0.first { $0.connected == connected }?.instant }) {
                    return instant
                }
                guard emitted.wait(timeout: deadline) == .success else { return nil }
            }
        }
    }
#endif
