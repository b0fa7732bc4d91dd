#if os(Linux)
    import Foundation
    import SyncGateTesting
    import SyncGateTestSupport
    import Testing

    @testable import SyncGateCore

    @testable import SyncGateLinux

    /// The D-Bus sources of `.deviceIdle` (systemd-logind, python-dbusmock's logind template),
    /// `.notRoaming` (ModemManager, a mock set up by `DBusTestBus.modemManagerTemplate`) and
    /// `.unmeteredConfirmed` (NetworkManager's `Metered`, python-dbusmock's NetworkManager template with
    /// `DBusTestBus.networkManagerTemplate`'s manager properties), each on its own private bus. Skips without dbus-daemon or dbusmock unless SYNCGATE_REQUIRE_DBUS=1.
    @Suite(.startsProcesses, .enabled(if: DBusTestBus.isEnabled, DBusTestBus.skipComment), .timeLimit(.minutes(2)))
    struct DBusRequirementSourceTests {
        static let login1 = "org.freedesktop.login1"
        static let modemManager = "org.freedesktop.ModemManager1"
        static let modem3gpp = "org.freedesktop.ModemManager1.Modem.Modem3gpp"
        static let networkManager = "org.freedesktop.NetworkManager"

        func configuration(_ bus: DBusTestBus) -> DBusFollowerConfiguration {
            DBusFollowerConfiguration(
                address: bus.address, callTimeout: .seconds(10), initialWait: .seconds(10), setupTimeout: .seconds(30))
        }

        @Test func logindIdleHintGatesDeviceIdleJobs() async throws {
            let bus = try DBusTestBus()
            let client = try DBusTestClient(address: bus.address)
            try bus.startMock("logind", template: "logind")
            try await client.waitForOwner(of: Self.login1)
            let observer = PowerObserver(
                sysfsRoot: bus.directory + "/no-sysfs", clock: ContinuousClock(), rereadInterval: nil,
                listensForUEvents: false, dbus: configuration(bus))
            // The template's manager starts with IdleHint false: someone uses the machine.
            _ = try await awaitValue(observer.statusStream, "not idle at first") { !$0.isDeviceIdle }
            #expect(observer.provenance.isDeviceIdle == .logind)
            let environment = SyncEnvironment(power: observer)
            let scheduler = SyncScheduler(environment: environment)
            let job = try scheduler.submit(SyncJob(requires: .deviceIdle) { _ in })
            #expect(job.state == .waiting(unmet: .deviceIdle, conditions: []))

            let manager = "org.freedesktop.login1.Manager"
            try await client.set(Self.login1, "/org/freedesktop/login1", manager, "IdleHint", .boolean(true))
            #expect(try await job.outcome() == .succeeded)
            #expect(observer.status.isDeviceIdle)

            try await client.set(Self.login1, "/org/freedesktop/login1", manager, "IdleHint", .boolean(false))
            _ = try await awaitValue(observer.statusStream, "in use again") { !$0.isDeviceIdle }
            // logind goes away: nothing reports idleness, so the requirement is met again.
            bus.stopMock("logind")
            _ = try await awaitValue(observer.statusStream, "logind gone") { $0.isDeviceIdle }
            #expect(observer.provenance.isDeviceIdle == .defaultValue)
            #expect(observer.provenance.notes.contains { $0.contains("systemd-logind is not available") })
        }

        /// A source started before its bus (a daemon that starts before dbus at boot) reaches the bus the
        /// moment it starts: the bus socket's creation is watched, and the reconnect timer (on a manual
        /// clock never advanced here) plays no part. The socket's directories do not exist at first.
        @Test func aBusThatStartsLaterIsReachedAtOnceWithoutTheTimer() async throws {
            var template = Array("/tmp/syncgate-latebus-XXXXXX".utf8CString)
            let base = String(cString: try #require(mkdtemp(&template)))
            defer { try? FileManager.default.removeItem(atPath: base) }
            let socketDirectory = base + "/run/dbus"
            let clock = ManualClock()
            let observer = PowerObserver(
                sysfsRoot: base + "/no-sysfs", clock: clock, rereadInterval: nil, listensForUEvents: false,
                dbus: DBusFollowerConfiguration(
                    address: "unix:path=\(socketDirectory)/system_bus_socket", clock: clock, callTimeout: .seconds(10),
                    initialWait: .seconds(1), setupTimeout: .seconds(30)))
            #expect(observer.provenance.isDeviceIdle == .defaultValue)
            try FileManager.default.createDirectory(atPath: socketDirectory, withIntermediateDirectories: true)
            let bus = try DBusTestBus(socketDirectory: socketDirectory)
            let client = try DBusTestClient(address: bus.address)
            try bus.startMock("logind", template: "logind")
            try await client.waitForOwner(of: Self.login1)
            // The template's manager says IdleHint false: read only once the source is on the bus.
            _ = try await awaitValue(observer.statusStream, "logind read from the late bus") { !$0.isDeviceIdle }
            #expect(observer.provenance.isDeviceIdle == .logind)
        }

        /// NetworkManager guesses "not metered" (GUESS_NO 4): an `.unmetered` job runs, an
        /// `.unmeteredConfirmed` one waits until the connection is set to not metered (NO 2), and a
        /// confirmed "metered" (YES 1) blocks both again.
        @Test func networkManagerMeteredGatesConfirmedUnmeteredJobs() async throws {
            let bus = try DBusTestBus()
            let client = try DBusTestClient(address: bus.address)
            try bus.startMock(
                "nm", template: "nm_full.py", parameters: #"{"Metered": 4, "PrimaryConnectionType": "802-3-ethernet"}"#)
            try await client.waitForOwner(of: Self.networkManager)
            let link = StatusBroadcast(LinuxInterfaceKind.wiredEthernet.connectedStatus)
            let observer = ConnectivityObserver(linkStatus: link, networkManager: configuration(bus))
            _ = try await awaitValue(observer.statusStream, "GUESS_NO read") { $0.metered == .guessedUnmetered }
            #expect(observer.provenance.isExpensive == .networkManager)
            let environment = SyncEnvironment(connectivity: observer)
            let scheduler = SyncScheduler(environment: environment)
            let strict = try scheduler.submit(
                SyncJob(id: "strict", requires: [.network, .unmeteredConfirmed]) { _ in })
            let relaxed = try scheduler.submit(SyncJob(id: "relaxed", requires: [.network, .unmetered]) { _ in })
            #expect(try await relaxed.outcome() == .succeeded)
            #expect(strict.state == .waiting(unmet: .unmeteredConfirmed, conditions: []))

            try await client.setNetworkManager("Metered", .uint32(2))
            #expect(try await strict.outcome() == .succeeded)
            #expect(observer.status.metered == .confirmedUnmetered)

            try await client.setNetworkManager("Metered", .uint32(1))
            let metered = try await awaitValue(environment.statusStream, "YES read") {
                $0.connectivity.metered == .confirmedMetered
            }
            #expect(!metered.satisfies(.unmetered))
            #expect(!metered.satisfies(.unmeteredConfirmed))

            // NetworkManager goes away: the link-kind rule guesses again, which only `.unmetered` takes.
            bus.stopMock("nm")
            let heuristic = try await awaitValue(environment.statusStream, "heuristic") {
                $0.connectivity.metered == .guessedUnmetered
            }
            #expect(heuristic.satisfies(.unmetered))
            #expect(!heuristic.satisfies(.unmeteredConfirmed))
            #expect(observer.provenance.isExpensive == .sysfsHeuristic)
        }

        @Test func modemManagerRoamingGatesNotRoamingJobs() async throws {
            let bus = try DBusTestBus()
            let client = try DBusTestClient(address: bus.address)
            // One modem, registered on a roaming network (ROAMING 5).
            try bus.startMock("mm", template: "mm.py", parameters: #"{"modems": [5]}"#)
            try await client.waitForOwner(of: Self.modemManager)
            let link = StatusBroadcast(ConnectivityStatus.connected(via: .cellular, isExpensive: true))
            let observer = ConnectivityObserver(linkStatus: link, networkManager: nil, modemManager: configuration(bus))
            _ = try await awaitValue(observer.statusStream, "roaming from the first read") { $0.isRoaming }
            #expect(observer.provenance.isRoaming == .modemManager)
            let environment = SyncEnvironment(connectivity: observer)
            let scheduler = SyncScheduler(environment: environment)
            let job = try scheduler.submit(SyncJob(requires: .notRoaming) { _ in })
            #expect(job.state == .waiting(unmet: .notRoaming, conditions: []))

            // Back on the home network (HOME 1): the modem's PropertiesChanged makes the follower re-read.
            let modem = "/org/freedesktop/ModemManager1/Modem/0"
            try await client.set(Self.modemManager, modem, Self.modem3gpp, "RegistrationState", .uint32(1))
            #expect(try await job.outcome() == .succeeded)
            #expect(!observer.status.isRoaming)

            // Roaming for SMS only (7) counts; on Wi-Fi a roaming modem does not matter.
            try await client.set(Self.modemManager, modem, Self.modem3gpp, "RegistrationState", .uint32(7))
            _ = try await awaitValue(observer.statusStream, "roaming, SMS only") { $0.isRoaming }
            link.send(.connected(via: .wifi))
            _ = try await awaitValue(observer.statusStream, "on Wi-Fi") { $0.interface == .wifi && !$0.isRoaming }
            link.send(.connected(via: .cellular, isExpensive: true))
            _ = try await awaitValue(observer.statusStream, "cellular again") { $0.isRoaming }

            // ModemManager goes away: nothing reports roaming.
            bus.stopMock("mm")
            _ = try await awaitValue(observer.statusStream, "ModemManager gone") { !$0.isRoaming }
            #expect(observer.provenance.isRoaming == .defaultValue)
            #expect(observer.provenance.notes.contains { $0.contains("ModemManager1 is not available") })
        }

        @Test func modemManagerWithoutModemIsNotRoaming() async throws {
            let bus = try DBusTestBus()
            let client = try DBusTestClient(address: bus.address)
            try bus.startMock("mm", template: "mm.py")
            try await client.waitForOwner(of: Self.modemManager)
            let link = StatusBroadcast(ConnectivityStatus.connected(via: .cellular, isExpensive: true))
            let observer = ConnectivityObserver(linkStatus: link, networkManager: nil, modemManager: configuration(bus))
            #expect(!observer.status.isRoaming)
            #expect(SyncEnvironment(connectivity: observer).status.satisfies(.notRoaming))
        }
    }
#endif
