#if os(Linux)
    import Dispatch
    import Foundation
    import SyncGateTesting
    import SyncGateTestSupport
    import Testing

    @testable import SyncGateCore

    @testable import SyncGateLinux
    @testable import SyncGateWire

    /// Bad input from the bus: calls never answered, malformed and oversized messages, properties of the
    /// wrong type. Against a scripted fake bus on a Unix socket; no dbus-daemon needed.
    @Suite(.startsProcesses, .timeLimit(.minutes(1)))
    struct DBusBadInputTests {
        /// A message whose 16-byte prefix is fine but whose header fields are not (a PATH of type `u`).
        static let malformed: [UInt8] = {
            let message = DBusMessage(kind: .signal, serial: 9, path: "/a", interface: "a.b", member: "C")
            var bytes = message.encoded()
            // Field 1 (PATH) starts at offset 16: code, then the variant's signature "o" → make it "u".
            bytes[18] = UInt8(ascii: "u")
            return bytes
        }()

        /// The wall-clock bound on a connection's setup against the fake bus: generous, because the bus is a
        /// thread of this process and the thread sanitizer's build can be slow to get to it; a setup that
        /// timed out would make the follower wait for its next (manual-clock) reconnection.
        static let setupTimeout = Duration.seconds(30)

        /// A header that declares a body of 2 GiB − 1.
        static let oversized: [UInt8] = [
            UInt8(ascii: "l"), 4, 0, 1, 0xFF, 0xFF, 0xFF, 0x7F, 1, 0, 0, 0, 0, 0, 0, 0,
        ]

        static func connection(_ bus: DBusFakeBus, clock: ManualClock, closed: AsyncStream<String>.Continuation? = nil)
            throws -> DBusConnection
        {
            try DBusConnection(
                address: bus.address, queue: DispatchQueue(label: "test"), clock: clock, callTimeout: .seconds(5),
                setupTimeout: setupTimeout, onSignal: { _ in }, onClose: { closed?.yield($0) })
        }

        static let ping = DBusMessage.methodCall(
            destination: "org.example.Silent", path: "/", interface: "org.example.Silent", member: "Ping")

        @Test func callNeverAnsweredTimesOut() async throws {
            let bus = try DBusFakeBus { _, _ in [.silence] }
            defer { bus.stop() }
            let clock = ManualClock()
            let connection = try Self.connection(bus, clock: clock)
            #expect(connection.uniqueName == ":1.1")
            let call = Task { try await connection.call(Self.ping) }
            await clock.waitForSleepers(1)
            clock.advance(by: .seconds(5))
            await #expect(throws: DBusError.timedOut(member: "Ping", timeout: .seconds(5))) { try await call.value }
        }

        @Test func cancelledCallEndsOnce() async throws {
            let bus = try DBusFakeBus { _, _ in [.silence] }
            defer { bus.stop() }
            let clock = ManualClock()
            let connection = try Self.connection(bus, clock: clock)
            let call = Task { try await connection.call(Self.ping) }
            await clock.waitForSleepers(1)
            call.cancel()
            await #expect(throws: DBusError.cancelled) { try await call.value }
            clock.advance(by: .seconds(10))  // the timer was cancelled: nothing resumes twice
        }

        @Test(arguments: [("malformed", malformed), ("oversized", oversized)])
        func badMessageClosesTheConnection(kind: String, bytes: [UInt8]) async throws {
            let bus = try DBusFakeBus { _, _ in [.silence] }
            defer { bus.stop() }
            let clock = ManualClock()
            let (closed, closedContinuation) = AsyncStream.makeStream(of: String.self)
            let connection = try Self.connection(bus, clock: clock, closed: closedContinuation)
            let call = Task { try await connection.call(Self.ping) }
            await clock.waitForSleepers(1)
            bus.inject(bytes)
            do {
                _ = try await call.value
                Issue.record("the call succeeded")
            } catch let error as DBusError {
                guard case .disconnected(let reason) = error else {
                    Issue.record("unexpected \(error)")
                    return
                }
                #expect(reason.contains("malformed message"), "\(reason)")
            }
            var reasons = closed.makeAsyncIterator()
            let reason = await reasons.next()
            #expect(
                reason?.contains(kind == "malformed" ? "header field" : "message length") == true, "\(reason ?? "")")
            #expect(connection.closeReason != nil)
            // A call after the end fails at once rather than waiting.
            await #expect(throws: DBusError.self) { try await connection.call(Self.ping) }
        }

        /// The bus learns that a connection is over when it ends, not when the connection's queue gets to
        /// the read source's cancel handler: that queue may be busy, for instance with the owner connecting
        /// again to the same bus, which blocks it until the bus answers.
        @Test func endedConnectionHangsUpWhileItsQueueIsBusy() async throws {
            let bus = try DBusFakeBus { _, _ in [.silence] }
            defer { bus.stop() }
            let queue = DispatchQueue(label: "busy")
            let connection = try DBusConnection(
                address: bus.address, queue: queue, clock: ManualClock(), onSignal: { _ in }, onClose: { _ in })
            let release = DispatchSemaphore(value: 0)
            queue.async { release.wait() }
            defer { release.signal() }
            connection.close()
            let number = try await awaitValue(bus.hangUps, within: .seconds(5), "hang-up") { _ in true }
            #expect(number == 1)
        }

        /// The fake NetworkManager: answers the match rules and the owner lookup, then `GetAll` with `properties`.
        static func networkManagerScript(_ properties: @escaping @Sendable (Int) -> [DBusValue]?)
            -> @Sendable (Int, DBusMessage) -> [DBusFakeBus.Response]
        {
            { connection, message in
                switch message.member {
                case "AddMatch": return [.reply([])]
                case "GetNameOwner":
                    return message.body.first?.string == NetworkManagerFollower.busName
                        ? [.reply([.string(":1.50")])] : [.error("org.freedesktop.DBus.Error.NameHasNoOwner")]
                case "GetAll":
                    guard let body = properties(connection) else { return [.silence] }
                    return [.reply(body)]
                default: return [.error("org.freedesktop.DBus.Error.UnknownMethod")]
                }
            }
        }

        @Test func serviceThatNeverAnswersFallsBack() async throws {
            let bus = try DBusFakeBus(script: Self.networkManagerScript { _ in nil })
            defer { bus.stop() }
            let clock = ManualClock()
            let (updates, updatesContinuation) = AsyncStream.makeStream(of: DBusPropertyFollower.Snapshot.self)
            let monitor = DBusPropertyFollower(
                targets: [
                    .init(
                        busName: NetworkManagerFollower.busName, path: NetworkManagerFollower.path,
                        interface: NetworkManagerFollower.interface)
                ],
                configuration: DBusFollowerConfiguration(
                    address: bus.address, clock: clock, initialWait: .zero, setupTimeout: Self.setupTimeout),
                label: "test"
            ) { updatesContinuation.yield($0) }
            defer { monitor.stop() }
            monitor.start(waitingUpTo: .zero)
            _ = try await awaitValue(bus.received, "GetAll") { $0.message.member == "GetAll" }
            await clock.waitForSleepers(1)
            clock.advance(by: .seconds(5))
            var iterator = updates.makeAsyncIterator()
            let snapshot = try #require(await iterator.next())
            #expect(snapshot.properties == [nil])
            #expect(snapshot.isConnected)
            #expect(monitor.problems.filter { $0.contains("GetAll") && $0.contains("no reply") }.count == 1)
            monitor.log(monitor.problems[0])
            #expect(monitor.problems.count == 1)  // logged once
        }

        @Test func malformedMessageFallsBackThenReconnects() async throws {
            let full: [DBusValue] = [
                .properties([
                    "Metered": .uint32(1), "Connectivity": .uint32(2),
                    "PrimaryConnectionType": .string("802-11-wireless"),
                ])
            ]
            // The second connection gets a Metered of the wrong type.
            let wrongType: [DBusValue] = [
                .properties([
                    "Metered": .string("yes"), "Connectivity": .uint32(2),
                    "PrimaryConnectionType": .string("802-11-wireless"),
                ])
            ]
            let bus = try DBusFakeBus(script: Self.networkManagerScript { $0 == 1 ? full : wrongType })
            defer { bus.stop() }
            let clock = ManualClock()
            let link = ConnectivityStatus.connected(via: .wiredEthernet)
            let observer = ConnectivityObserver(
                linkStatus: StatusBroadcast(link),
                networkManager: DBusFollowerConfiguration(
                    address: bus.address, clock: clock, initialWait: .seconds(10), setupTimeout: Self.setupTimeout)
            )
            #expect(observer.status == .connected(via: .wifi, isExpensive: true, reachability: .captivePortal))

            bus.inject(Self.malformed)
            _ = try await awaitValue(observer.statusStream, "fallback") { $0 == link }
            #expect(observer.provenance.notes.contains { $0.contains("malformed message") })
            #expect(observer.provenance.notes.contains { $0.contains("no D-Bus connection") })

            // The reconnection timer, not a call's timeout that may still be going away.
            await clock.waitForSleeper(until: ManualClock.Instant(offset: .seconds(30)))
            clock.advance(by: .seconds(30))
            let back = try await awaitValue(observer.statusStream, "reconnected") { $0.reachability == .captivePortal }
            #expect(back == .connected(via: .wifi, metered: .guessedUnmetered, reachability: .captivePortal))
            #expect(observer.provenance.isExpensive == StatusOrigin("NetworkManager connection type"))
            let typeNotes = observer.provenance.notes.filter { $0.contains("Metered has type s") }
            #expect(typeNotes.count == 1, "\(observer.provenance.notes)")
        }

        @Test func noBusAtAllMeansHeuristic() throws {
            let observer = ConnectivityObserver(
                linkStatus: StatusBroadcast(.connected(via: .cellular, isExpensive: true)),
                networkManager: DBusFollowerConfiguration(
                    address: "unix:path=/nonexistent/syncgate-bus", clock: ManualClock(), initialWait: .seconds(10)))
            #expect(observer.status == .connected(via: .cellular, isExpensive: true))
            #expect(observer.provenance.interface == .sysfsHeuristic)
            #expect(observer.provenance.reachability == .defaultValue)
            #expect(observer.provenance.notes.contains { $0.contains("no D-Bus connection to unix:path=/nonexistent") })
        }

        @Test func wrongProfileTypeIsIgnored() throws {
            let snapshot = DBusPropertyFollower.Snapshot(
                properties: [
                    ["ActiveProfile": .uint32(3)], ["ActiveProfile": .string("power-saver")],
                    ["OnBattery": .string("no")],
                ],
                owners: [":1.1", ":1.2", ":1.3"], isConnected: true)
            var logged: [String] = []
            let facts = PowerDaemonFollower.facts(from: snapshot) { logged.append($0) }
            #expect(facts == PowerDBusFacts(activeProfile: "power-saver", profilesBusName: "net.hadess.PowerProfiles"))
            #expect(logged.count == 2)
            #expect(logged.first?.contains("ActiveProfile has type u") == true)
        }
    }
#endif
