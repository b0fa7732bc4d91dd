// syncgate-netns-probe: runs SyncGate's Linux ConnectivityObserver (usually inside a network namespace,
// started with `ip netns exec NAME syncgate-netns-probe …`) for the integration tests and measurements.
//
//   watch [--debounce-ms N] [--rcvbuf BYTES]   one JSON line per emitted status; exits when stdin closes
//   bench --peer IFNAME [--flaps N]            debounce 0; flaps IFNAME (the veth peer of the routed
//                                              link, same namespace) through rtnetlink and prints the
//                                              event-to-emission latency percentiles as JSON
//   idle [--debounce-ms N]                     one JSON line, then blocks in read(0) until stdin closes:
//                                              no Swift concurrency and no Foundation threads, so every
//                                              wake-up of the process is the observer's own
//   fd-check                                   open/close counts of /proc/self/fd around an observer
//   capture                                    hex of a link dump and both route lookups (test vectors)
//
// The library as the README tells users to build it: these modes construct only
// `SyncEnvironment(monitoring: .all)` (and a `SyncScheduler` on it) and hold no observer themselves.
//
//   environment-watch                          one JSON line per status of the environment; exits when
//                                              stdin closes
//   environment-wait [--timeout-ms N]          prints the status it starts from, then waits until
//                                              `.network` holds: prints `ready` and exits 0, or prints
//                                              `timedOut` and exits 1
//   scheduler                                  submits one job that requires `.network` and runs until
//                                              cancelled; one JSON line per scheduler event and per start
//                                              and stop of the job's body; exits when stdin closes
//   file-trigger PATH                          submits one job triggered by changes under PATH; prints
//                                              `watching` and exits 0, or prints the refusal and exits 1
//                                              (the tests lower the watch limit around it)

#if os(Linux)
    import Dispatch
    import Foundation
    import Glibc
    import SyncGate
    import SyncGateWire

    func monotonicNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    func emit(_ line: String) {
        print(line)
        fflush(nil)
    }

    func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data(("syncgate-netns-probe: " + message + "\n").utf8))
        exit(2)
    }

    func option(_ name: String, in arguments: [String]) -> String? {
        guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
        return arguments[index + 1]
    }

    func json(_ status: ConnectivityStatus, sequence: Int, counters: ConnectivityReaderCounters) -> String {
        "{\"seq\":\(sequence),\"connected\":\(status.isConnected),\"interface\":\"\(status.interface)\","
            + "\"expensive\":\(status.isExpensive),\"constrained\":\(status.isConstrained),"
            + "\"monotonicNs\":\(monotonicNanoseconds()),\"evaluations\":\(counters.evaluations),"
            + "\"resyncs\":\(counters.resyncs),\"earlyGains\":\(counters.earlyGains)}"
    }

    func makeObserver(debounceMilliseconds: Int, receiveBuffer: Int32?) -> ConnectivityObserver {
        var configuration = ConnectivityReaderConfiguration(debounce: .milliseconds(debounceMilliseconds))
        if let receiveBuffer { configuration.receiveBufferSize = receiveBuffer }
        do {
            return try ConnectivityObserver(configuration: configuration)
        } catch {
            fail("cannot start the observer: \(error)")
        }
    }

    /// Exits when the test closes our stdin (or dies), so no probe outlives its namespace.
    func exitWhenStdinCloses() {
        Thread.detachNewThread {
            var byte: UInt8 = 0
            while read(0, &byte, 1) > 0 {}
            exit(0)
        }
    }

    func quoted(_ names: [String]) -> String {
        "[" + names.map { "\"\($0)\"" }.joined(separator: ",") + "]"
    }

    func json(_ status: SyncEnvironmentStatus, event: String, sequence: Int) -> String {
        "{\"event\":\"\(event)\",\"seq\":\(sequence),\"connected\":\(status.connectivity.isConnected),"
            + "\"interface\":\"\(status.connectivity.interface)\",\"met\":\(quoted(status.satisfiedRequirements.names)),"
            + "\"monitored\":\(quoted(status.monitoredParts.names))}"
    }

    func environmentWatch() async {
        let environment = SyncEnvironment(monitoring: .all)
        exitWhenStdinCloses()
        var sequence = 0
        for await status in environment.statusStream {
            emit(json(status, event: "status", sequence: sequence))
            sequence += 1
        }
        withExtendedLifetime(environment) {}
    }

    func environmentWait(_ arguments: [String]) async {
        let timeout = option("--timeout-ms", in: arguments).flatMap(Int.init) ?? 10_000
        let environment = SyncEnvironment(monitoring: .all)
        emit(json(environment.status, event: "waiting", sequence: 0))
        do {
            let status = try await environment.waitUntil(.network, timeout: .milliseconds(timeout))
            emit(json(status, event: "ready", sequence: 1))
            exit(0)
        } catch {
            emit(json(environment.status, event: "timedOut", sequence: 1))
            exit(1)
        }
    }

    func json(_ event: SyncSchedulerEvent) -> String {
        switch event {
        case .submitted(let id): "{\"event\":\"submitted\",\"id\":\"\(id)\"}"
        case .started(let id, let attempt): "{\"event\":\"started\",\"id\":\"\(id)\",\"attempt\":\(attempt)}"
        case .requeued(let id, let lost): "{\"event\":\"requeued\",\"id\":\"\(id)\",\"lost\":\(quoted(lost.names))}"
        case .succeeded(let id): "{\"event\":\"succeeded\",\"id\":\"\(id)\"}"
        case .failed(let id, _): "{\"event\":\"failed\",\"id\":\"\(id)\"}"
        case .retryScheduled(let id, let attempt, _):
            "{\"event\":\"retryScheduled\",\"id\":\"\(id)\",\"attempt\":\(attempt)}"
        case .stopRequested(let id, let attempt, let reason):
            "{\"event\":\"stopRequested\",\"id\":\"\(id)\",\"attempt\":\(attempt),\"reason\":\"\(reason.name)\"}"
        case .cancelled(let id): "{\"event\":\"cancelled\",\"id\":\"\(id)\"}"
        case .expired(let id): "{\"event\":\"expired\",\"id\":\"\(id)\"}"
        case .periodEnded(let id, _): "{\"event\":\"periodEnded\",\"id\":\"\(id)\"}"
        case .relaxed(let id, _): "{\"event\":\"relaxed\",\"id\":\"\(id)\"}"
        }
    }

    func schedulerRun() async {
        let scheduler = SyncScheduler(environment: SyncEnvironment(monitoring: .all))
        exitWhenStdinCloses()
        let events = scheduler.events
        let job = SyncJob(id: "sync", requires: .network) { context in
            emit("{\"event\":\"body-started\",\"id\":\"sync\",\"attempt\":\(context.attempt)}")
            do {
                try await Task.sleep(for: .seconds(3_600))
            } catch {
                let reason = context.stopReason?.name ?? "none"
                emit(
                    "{\"event\":\"body-cancelled\",\"id\":\"sync\",\"attempt\":\(context.attempt),\"reason\":\"\(reason)\"}"
                )
                throw error
            }
        }
        let handle: SyncJobHandle
        do {
            handle = try scheduler.submit(job)
        } catch {
            fail("submit: \(error)")
        }
        if case .waiting(let unmet, _) = handle.state {
            emit("{\"event\":\"waiting\",\"id\":\"sync\",\"unmet\":\(quoted(unmet.names))}")
        } else {
            emit("{\"event\":\"state\",\"id\":\"sync\",\"state\":\"\(handle.state)\"}")
        }
        for await event in events { emit(json(event)) }
    }

    func watch(_ arguments: [String]) async {
        let debounce = option("--debounce-ms", in: arguments).flatMap(Int.init) ?? 200
        let receiveBuffer = option("--rcvbuf", in: arguments).flatMap(Int32.init)
        let observer = makeObserver(debounceMilliseconds: debounce, receiveBuffer: receiveBuffer)
        exitWhenStdinCloses()
        var sequence = 0
        for await status in observer.statusStream {
            emit(json(status, sequence: sequence, counters: observer.counters))
            sequence += 1
        }
    }

    /// Sets a link administratively up or down through rtnetlink and waits for the kernel's ACK.
    func setLink(_ socket: NetlinkSocket, index: Int32, up: Bool, sequence: UInt32) {
        var payload = [UInt8](repeating: 0, count: 16)
        NetlinkBytes.store(index, into: &payload, at: 4)
        NetlinkBytes.store(up ? Netlink.InterfaceFlag.up : 0, into: &payload, at: 8)
        NetlinkBytes.store(Netlink.InterfaceFlag.up, into: &payload, at: 12)
        let request = NetlinkMessage(
            type: Netlink.MessageType.newLink,
            flags: Netlink.MessageFlag.request | Netlink.MessageFlag.ack,
            sequence: sequence,
            payload: payload
        )
        if let code = socket.send(request.bytes) { fail("send RTM_NEWLINK: errno \(code)") }
        while socket.waitReadable(milliseconds: 2_000) {
            if case .datagram(let bytes) = socket.receive(),
                let ack = NetlinkMessage.parse(bytes).messages.first(where: { $0.sequence == sequence }),
                let code = ack.errorCode
            {
                if code != 0 { fail("RTM_NEWLINK: errno \(code)") }
                return
            }
        }
        fail("no ACK for RTM_NEWLINK")
    }

    func bench(_ arguments: [String]) {
        guard let peer = option("--peer", in: arguments) else { fail("bench needs --peer IFNAME") }
        let flaps = option("--flaps", in: arguments).flatMap(Int.init) ?? 200
        let index = Int32(if_nametoindex(peer))
        guard index > 0 else { fail("no interface \(peer)") }
        let observer = makeObserver(debounceMilliseconds: 0, receiveBuffer: nil)
        guard observer.status.isConnected else { fail("bench must start connected") }
        let emitted = DispatchSemaphore(value: 0)
        let emissions = LockedState<[(UInt64, Bool)]>([])
        let token = observer.broadcast.addObserver { status in
            let now = monotonicNanoseconds()
            emissions.withLock { $0.append((now, status.isConnected)) }
            emitted.signal()
        }
        defer { observer.broadcast.removeObserver(token) }
        let control: NetlinkSocket
        do {
            control = try NetlinkSocket(groups: 0, receiveBufferSize: nil, bufferSize: 16 * 1024)
        } catch {
            fail("control socket: \(error)")
        }
        var samples: [Double] = []
        var sequence: UInt32 = 0
        for flap in 0..<(2 * flaps) {
            let up = flap % 2 == 1
            sequence += 1
            emissions.withLock { $0 = [] }
            let start = monotonicNanoseconds()
            setLink(control, index: index, up: up, sequence: sequence)
            var reached: UInt64?
            while reached == nil {
                guard emitted.wait(timeout: .now() + 5) == .success else { fail("no emission after flap \(flap)") }
                reached = emissions.withLock { $0.first { $0.1 == up }?.0 }
            }
            if let reached { samples.append(Double(reached - start) / 1_000) }
        }
        samples.sort()
        func percentile(_ p: Double) -> Double {
            samples[min(samples.count - 1, Int((Double(samples.count - 1) * p).rounded()))]
        }
        let summary = [0, 0.25, 0.5, 0.75, 0.9, 0.99, 1].map { p in
            "\"p\(Int(p * 100))\":\(String(format: "%.1f", percentile(p)))"
        }
        let counters = observer.counters
        emit(
            "{\"unit\":\"us\",\"samples\":\(samples.count),\(summary.joined(separator: ",")),"
                + "\"evaluations\":\(counters.evaluations),\"resyncs\":\(counters.resyncs)}"
        )
    }

    func idle(_ arguments: [String]) {
        let debounce = option("--debounce-ms", in: arguments).flatMap(Int.init) ?? 200
        let observer = makeObserver(debounceMilliseconds: debounce, receiveBuffer: nil)
        emit(json(observer.status, sequence: 0, counters: observer.counters))
        var byte: UInt8 = 0
        while read(0, &byte, 1) > 0 {}
        withExtendedLifetime(observer) {}
    }

    func openDescriptorCount() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1
    }

    func fileDescriptorCheck() {
        let before = openDescriptorCount()
        var observer: ConnectivityObserver? = makeObserver(debounceMilliseconds: 200, receiveBuffer: nil)
        let during = openDescriptorCount()
        let owned = observer?.fileDescriptors ?? []
        observer = nil
        let after = openDescriptorCount()
        emit("{\"before\":\(before),\"during\":\(during),\"after\":\(after),\"owned\":\(owned)}")
    }

    func capture() {
        let socket: NetlinkSocket
        do {
            socket = try NetlinkSocket(groups: 0, receiveBufferSize: nil, bufferSize: 64 * 1024)
        } catch {
            fail("socket: \(error)")
        }
        let configuration = ConnectivityReaderConfiguration()
        let requests: [(String, [UInt8]?)] = [
            ("link-dump", NetlinkRequest.linkDump(sequence: 1)),
            ("route-v4", NetlinkRequest.routeLookup(destination: configuration.ipv4Probe, sequence: 2)),
            ("route-v6", NetlinkRequest.routeLookup(destination: configuration.ipv6Probe, sequence: 3)),
        ]
        for (name, request) in requests {
            guard let request, socket.send(request) == nil else { fail("send \(name)") }
            var datagrams = 0
            while socket.waitReadable(milliseconds: 1_000) {
                guard case .datagram(let bytes) = socket.receive() else { continue }
                emit("\(name) \(datagrams): " + bytes.map { String(format: "%02x", $0) }.joined())
                datagrams += 1
                let messages = NetlinkMessage.parse(bytes).messages
                if messages.contains(where: { $0.type != Netlink.MessageType.newLink }) || name != "link-dump" { break }
            }
        }
    }

    /// Submits one file-triggered job on the system's watcher and reports whether its watch started.
    func fileTrigger(_ arguments: [String]) {
        guard arguments.count == 2 else { fail("file-trigger needs a PATH") }
        var options = SyncJobOptions(requires: .none)
        options.fileTrigger = SyncFileTrigger(paths: [arguments[1]], quietPeriod: .seconds(1))
        let scheduler = SyncScheduler(environment: SyncEnvironment(monitoring: []))
        do {
            let handle = try scheduler.submit(SyncJob(options: options) { _ in })
            emit("watching")
            handle.cancel()
            exit(0)
        } catch {
            emit("\(error)")
            exit(1)
        }
    }

    let arguments = Array(CommandLine.arguments.dropFirst())
    switch arguments.first {
    case "watch", nil: await watch(arguments)
    case "bench": bench(arguments)
    case "idle": idle(arguments)
    case "fd-check": fileDescriptorCheck()
    case "capture": capture()
    case "environment-watch": await environmentWatch()
    case "environment-wait": await environmentWait(arguments)
    case "scheduler": await schedulerRun()
    case "file-trigger": fileTrigger(arguments)
    case let mode?: fail("unknown mode \(mode)")
    }
#else
    print("syncgate-netns-probe needs Linux")
#endif
