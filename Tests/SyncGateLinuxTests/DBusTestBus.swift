#if os(Linux)
    import Dispatch
    import Foundation
    import Glibc
    import SyncGateTesting
    import Testing

    @testable import SyncGateCore

    @testable import SyncGateLinux
    @testable import SyncGateWire

    /// A private system-like bus (`dbus-daemon`) with python-dbusmock services on it, for the D-Bus tests.
    ///
    /// Needs `dbus-daemon` and Debian's `python3-dbusmock` (for `/usr/bin/python3`); the suites skip
    /// without them, and fail instead when `SYNCGATE_REQUIRE_DBUS=1`.
    final class DBusTestBus: @unchecked Sendable {
        /// `SYNCGATE_REQUIRE_DBUS=1` turns a skip into a failure (CI sets it).
        static let isRequired = ProcessInfo.processInfo.environment["SYNCGATE_REQUIRE_DBUS"] == "1"

        /// The `dbus-daemon` binary.
        static let daemonPath: String? = ["/usr/bin/dbus-daemon", "/bin/dbus-daemon"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }

        /// Debian's interpreter, for which `python3-dbusmock` is installed (not a pyenv `python3` on PATH).
        static let pythonPath = "/usr/bin/python3"

        /// Why the suites cannot run, or `nil` when they can.
        static let unavailableReason: String? = {
            guard daemonPath != nil else { return "dbus-daemon is missing (apt-get install dbus-daemon)" }
            guard FileManager.default.isExecutableFile(atPath: pythonPath),
                (try? run(pythonPath, ["-c", "import dbusmock"])) != nil
            else { return "python-dbusmock is missing for /usr/bin/python3 (apt-get install python3-dbusmock)" }
            return nil
        }()

        /// Whether the suites run: they can, or they must (and then fail with the reason).
        static let isEnabled = unavailableReason == nil || isRequired

        /// The message shown when the suites are skipped.
        static var skipComment: Comment {
            Comment(
                rawValue: "D-Bus integration tests skipped: \(unavailableReason ?? "")."
                    + " SYNCGATE_REQUIRE_DBUS=1 makes this a failure.")
        }

        /// The bus's address, `unix:path=<dir>/system_bus_socket`.
        let address: String
        /// The private directory with the config, the socket and the templates.
        let directory: String
        private let daemon: SpawnedProcess
        private var mocks: [String: SpawnedProcess] = [:]

        /// Starts a private bus, its socket in `socketDirectory` (which must exist) or else in ``directory``;
        /// returns once it accepts connections.
        init(socketDirectory: String? = nil) throws {
            if let reason = Self.unavailableReason { throw DBusTestError("cannot run: \(reason)") }
            var template = Array("/tmp/syncgate-dbus-XXXXXX".utf8CString)
            guard let made = mkdtemp(&template) else { throw DBusTestError("mkdtemp failed") }
            directory = String(cString: made)
            address = "unix:path=\(socketDirectory ?? directory)/system_bus_socket"
            let config = """
                <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
                 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
                <busconfig>
                  <type>system</type>
                  <listen>\(address)</listen>
                  <auth>EXTERNAL</auth>
                  <policy context="default">
                    <allow user="*"/>
                    <allow own="*"/>
                    <allow send_destination="*" eavesdrop="true"/>
                    <allow receive_sender="*"/>
                    <allow eavesdrop="true"/>
                  </policy>
                </busconfig>
                """
            try config.write(toFile: "\(directory)/bus.conf", atomically: false, encoding: .utf8)
            try Self.networkManagerTemplate.write(toFile: "\(directory)/nm_full.py", atomically: false, encoding: .utf8)
            try Self.profilesTemplate.write(toFile: "\(directory)/ppd_current.py", atomically: false, encoding: .utf8)
            try Self.modemManagerTemplate.write(toFile: "\(directory)/mm.py", atomically: false, encoding: .utf8)
            daemon = try SpawnedProcess(
                Self.daemonPath ?? "", ["--config-file=\(directory)/bus.conf", "--nofork", "--print-address=1"])
            // The daemon prints its address once it listens.
            let line: String
            do {
                line = try daemon.nextLine(within: .seconds(10))
            } catch {
                throw DBusTestError("dbus-daemon did not start: \(error)")
            }
            guard line.hasPrefix("unix:") else { throw DBusTestError("dbus-daemon printed \(line)") }
        }

        deinit {
            for mock in mocks.values { mock.stop() }
            daemon.stop()
            try? FileManager.default.removeItem(atPath: directory)
        }

        /// Starts python-dbusmock with a template (a name of the package's, or a file in ``directory``).
        ///
        /// Returns at once; wait for the name with ``DBusTestClient/waitForOwner(of:within:)`` or through the
        /// code under test.
        func startMock(_ key: String, template: String, parameters: String = "{}") throws {
            let path = template.hasSuffix(".py") ? "\(directory)/\(template)" : template
            mocks[key] = try SpawnedProcess(
                Self.pythonPath, ["-m", "dbusmock", "--system", "-t", path, "-p", parameters],
                environment: ["DBUS_SYSTEM_BUS_ADDRESS": address], discardingOutput: true)
        }

        /// Stops a mock started with ``startMock(_:template:parameters:)``; its name leaves the bus.
        func stopMock(_ key: String) {
            mocks.removeValue(forKey: key)?.stop()
        }

        /// NetworkManager's template plus the manager properties it lacks, set from the parameters.
        static let networkManagerTemplate = """
            import dbus
            import dbusmock
            from dbusmock.templates.networkmanager import *
            from dbusmock.templates import networkmanager as base

            def load(mock, parameters):
                base.load(mock, parameters)
                manager = dbusmock.get_object(base.MANAGER_OBJ)
                manager.AddProperties(base.MANAGER_IFACE, dbus.Dictionary({
                    'Metered': dbus.UInt32(parameters.get('Metered', 4)),
                    'PrimaryConnectionType': dbus.String(parameters.get('PrimaryConnectionType', '802-11-wireless')),
                    'PrimaryConnection': dbus.ObjectPath(parameters.get('PrimaryConnection', '/')),
                }, signature='sv'))
            """

        /// power-profiles-daemon under its current bus name (python-dbusmock 0.28 only has the legacy one).
        static let profilesTemplate = """
            import dbus
            BUS_NAME = 'org.freedesktop.UPower.PowerProfiles'
            MAIN_OBJ = '/org/freedesktop/UPower/PowerProfiles'
            MAIN_IFACE = 'org.freedesktop.UPower.PowerProfiles'
            SYSTEM_BUS = True

            def load(mock, parameters):
                mock.AddProperties(MAIN_IFACE, dbus.Dictionary({
                    'ActiveProfile': dbus.String(parameters.get('ActiveProfile', 'balanced')),
                }, signature='sv'))
            """

        /// ModemManager (python-dbusmock has no template for it): the manager object as an object manager,
        /// with one connected modem per entry of the `modems` parameter, each with that 3GPP registration
        /// state, at `/org/freedesktop/ModemManager1/Modem/<index>`.
        static let modemManagerTemplate = """
            import dbus
            import dbusmock
            BUS_NAME = 'org.freedesktop.ModemManager1'
            MAIN_OBJ = '/org/freedesktop/ModemManager1'
            MAIN_IFACE = 'org.freedesktop.ModemManager1'
            SYSTEM_BUS = True
            IS_OBJECT_MANAGER = True
            MODEM_IFACE = 'org.freedesktop.ModemManager1.Modem'
            MODEM_3GPP_IFACE = 'org.freedesktop.ModemManager1.Modem.Modem3gpp'

            def load(mock, parameters):
                mock.AddProperties(MAIN_IFACE, dbus.Dictionary({'Version': '1.20.0'}, signature='sv'))
                for index, state in enumerate(parameters.get('modems', [])):
                    path = MAIN_OBJ + '/Modem/%d' % index
                    mock.AddObject(path, MODEM_IFACE, {'State': dbus.Int32(11)}, [])
                    modem = dbusmock.get_object(path)
                    modem.AddProperties(MODEM_3GPP_IFACE, dbus.Dictionary({
                        'RegistrationState': dbus.UInt32(state),
                    }, signature='sv'))
                    mock.object_manager_emit_added(path)
            """

        /// Runs a program to completion (within 30 s); throws with its stderr when it fails.
        @discardableResult
        static func run(_ path: String, _ arguments: [String]) throws -> String {
            do {
                return try SpawnedProcess.run(path, arguments)
            } catch {
                throw DBusTestError("\(error)")
            }
        }
    }

    /// A failure while setting up or driving the test bus.
    struct DBusTestError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// A plain client of the test bus that drives the mocks (their `org.freedesktop.DBus.Mock` methods and
    /// `Properties.Set`) and waits for names.
    final class DBusTestClient: Sendable {
        let connection: DBusConnection
        private let signals: AsyncStream<DBusMessage>

        init(address: String) throws {
            let (signals, continuation) = AsyncStream.makeStream(of: DBusMessage.self)
            self.signals = signals
            connection = try DBusConnection(
                address: address, queue: DispatchQueue(label: "DBusTestClient"), setupTimeout: .seconds(30),
                onSignal: { continuation.yield($0) }, onClose: { _ in continuation.finish() })
        }

        deinit {
            connection.close()
        }

        /// Calls a method and returns its reply body; throws the error reply.
        @discardableResult
        func call(
            _ destination: String, _ path: String, _ interface: String, _ member: String, _ body: [DBusValue] = []
        ) async throws -> [DBusValue] {
            try await connection.call(
                DBusMessage.methodCall(
                    destination: destination, path: path, interface: interface, member: member, body: body)
            ).body
        }

        /// Sets a property through the standard `Properties.Set` (dbusmock emits `PropertiesChanged`).
        func set(_ destination: String, _ path: String, _ interface: String, _ name: String, _ value: DBusValue)
            async throws
        {
            try await call(
                destination, path, "org.freedesktop.DBus.Properties", "Set",
                [.string(interface), .string(name), .variant(value)])
        }

        /// Sets a NetworkManager manager property through the template's `SetProperty`, which emits both the
        /// standard and the legacy `PropertiesChanged`.
        func setNetworkManager(_ name: String, _ value: DBusValue) async throws {
            try await call(
                "org.freedesktop.NetworkManager", "/org/freedesktop", "org.freedesktop.DBus.Mock", "SetProperty",
                [
                    .objectPath("/org/freedesktop/NetworkManager"), .string("org.freedesktop.NetworkManager"),
                    .string(name), .variant(value),
                ])
        }

        /// Waits until `name` has an owner on the bus, or throws after `timeout`.
        ///
        /// The default is wide: the owner is a Python interpreter that imports dbus and dbusmock first, and a
        /// CI machine starting hundreds of tests at once (while a build runs beside them) once took over
        /// 20 s to get one there. It bounds a hang; nothing is timed.
        func waitForOwner(of name: String, within timeout: Duration = .seconds(45)) async throws {
            _ = try await connection.call(
                DBusMessage.methodCall(
                    destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                    interface: "org.freedesktop.DBus", member: "AddMatch",
                    body: [.string(DBusPropertyStateMachine.nameOwnerRule(name))]))
            let owner = try? await call(
                "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetNameOwner", [.string(name)]
            )
            if owner != nil { return }
            _ = try await awaitValue(signals, within: timeout, "\(name) to appear") { message in
                message.member == "NameOwnerChanged" && message.body.first?.string == name
                    && message.body.last?.string?.isEmpty == false
            }
        }
    }

    /// Iterates `stream` until an element satisfies `predicate`, or throws after `timeout` (a timer cancels
    /// the iteration; nothing sleeps).
    func awaitValue<Element: Sendable>(
        _ stream: AsyncStream<Element>,
        within timeout: Duration = .seconds(20),
        _ what: String,
        where predicate: @escaping @Sendable (Element) -> Bool
    ) async throws -> Element {
        let seen = LockedState<[Element]>([])
        let task = Task { () -> Element? in
            for await element in stream {
                seen.withLock { $0.append(element) }
                if predicate(element) { return element }
            }
            return nil
        }
        let timer = DispatchWorkItem { task.cancel() }
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) * 1e-18
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: timer)
        let found = await task.value
        timer.cancel()
        guard let found else {
            throw DBusTestError("no value matched \(what) within \(timeout); saw \(seen.withLock { $0 })")
        }
        return found
    }
#endif
