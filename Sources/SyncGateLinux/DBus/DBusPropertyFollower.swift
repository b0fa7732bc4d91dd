import SyncGateCore

#if os(Linux)
    import Dispatch
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #endif
    import SyncGateWire

    /// The shell around ``DBusPropertyStateMachine``: one bus connection on a private queue, the tracker's
    /// actions performed on it, and a snapshot handed to the owner after each change.
    ///
    /// When the bus cannot be reached or the connection ends, every target reads as absent and a
    /// reconnection is tried after the reconnect delay (on the injected clock). Each distinct problem (a
    /// malformed message, a call that timed out, an unexpected reply) is recorded once in ``problems``.
    final class DBusPropertyFollower: Sendable {
        /// What the owner learns after each change.
        struct Snapshot: Sendable, Hashable {
            /// The properties of each target, by index; `nil` while it is absent or unknown.
            var properties: [[String: DBusValue]?]
            /// The unique name owning each target's bus name, when present.
            var owners: [String?]
            /// Whether the bus connection is up.
            var isConnected: Bool
            /// Why the bus is not connected, when it is not.
            var busProblem: String?
        }

        private struct State {
            var tracker: DBusPropertyStateMachine
            var connection: DBusConnection?
            var busProblem: String?
            var isStopped = false
            var hasStarted = false
            var isSettled = false
            var reconnectTask: Task<Void, Never>?
            /// Waits for the bus socket to be created while there is no connection.
            var socketWatch: SocketPathSubscription?
            /// Quick retries left after the bus socket appeared: a socket is created by `bind` just before
            /// its daemon calls `listen`, so the first connection may be refused.
            var retriesAfterAppearance = 0
            var problems: [String] = []
            var settledWaiters: [DispatchSemaphore] = []
        }

        /// The most problems kept; later ones are dropped.
        static let maximumProblems = 32

        /// The queue on which the connection reads and every callback runs.
        let queue: DispatchQueue
        private let configuration: DBusFollowerConfiguration
        private let state: LockedState<State>
        private let onUpdate: @Sendable (Snapshot) -> Void
        private let extraMatchRules: [String]
        private let onOtherSignal: (@Sendable (DBusMessage) -> Void)?

        /// Creates the follower; nothing happens until ``start()``.
        ///
        /// - Parameters:
        ///   - extraMatchRules: match rules added on each connection besides the targets' own, for signals
        ///     of objects whose paths are not known in advance (ModemManager's modems).
        ///   - onOtherSignal: called on the queue with every signal other than `NameOwnerChanged`, after
        ///     the targets' properties are updated from it.
        init(
            targets: [DBusPropertyStateMachine.Target],
            configuration: DBusFollowerConfiguration,
            label: String,
            extraMatchRules: [String] = [],
            onOtherSignal: (@Sendable (DBusMessage) -> Void)? = nil,
            onUpdate: @escaping @Sendable (Snapshot) -> Void
        ) {
            queue = DispatchQueue(label: label)
            self.configuration = configuration
            state = LockedState(State(tracker: DBusPropertyStateMachine(targets: targets)))
            self.extraMatchRules = extraMatchRules
            self.onOtherSignal = onOtherSignal
            self.onUpdate = onUpdate
        }

        /// The address this follower connects to.
        var address: String {
            configuration.address ?? DBusAddress.systemBus(environment: Self.environment())
        }

        /// Connects on the queue and waits (wall clock) until every target is settled or `wait` passes.
        func start(waitingUpTo wait: Duration) {
            let semaphore = DispatchSemaphore(value: 0)
            state.withLock { state in
                state.hasStarted = true
                state.settledWaiters.append(semaphore)
            }
            queue.async { self.connect() }
            let nanoseconds = wait.components.seconds * 1_000_000_000 + wait.components.attoseconds / 1_000_000_000
            _ = semaphore.wait(timeout: .now() + .nanoseconds(Int(clamping: nanoseconds)))
        }

        /// Closes the connection and cancels the reconnection; no update is delivered afterwards.
        func stop() {
            let (connection, task, waiters, watch) = state.withLock { state in
                state.isStopped = true
                defer {
                    state.connection = nil
                    state.reconnectTask = nil
                    state.socketWatch = nil
                    state.settledWaiters = []
                }
                return (state.connection, state.reconnectTask, state.settledWaiters, state.socketWatch)
            }
            task?.cancel()
            watch?.cancel()
            connection?.close()
            for waiter in waiters { waiter.signal() }
        }

        /// Each distinct problem met so far, oldest first.
        var problems: [String] { state.withLock { $0.problems } }

        /// The current snapshot.
        var snapshot: Snapshot { state.withLock { Self.snapshot(of: $0) } }

        /// The notes of a source built on this monitor: why there is no bus connection (with its cause), or
        /// else what `whileConnected` says about the services; then each problem met, once. The connection
        /// note and the problems start with `label`; the cause of the current disconnection is not
        /// repeated among the problems.
        func notes(label: String, whileConnected: (Snapshot) -> [String]) -> [String] {
            let (snapshot, problems) = state.withLock { (Self.snapshot(of: $0), $0.problems) }
            guard !snapshot.isConnected else {
                return whileConnected(snapshot) + problems.map { "\(label): \($0)" }
            }
            let cause = snapshot.busProblem
            let connection = "\(label): no D-Bus connection to \(address)" + (cause.map { " (\($0))" } ?? "")
            let earlier = problems.filter { problem in cause.map { problem != Self.disconnection(address, $0) } ?? true
            }
            return [connection] + earlier.map { "\(label): \($0)" }
        }

        /// The problem recorded when the connection to `address` ends for `reason`.
        private static func disconnection(_ address: String, _ reason: String) -> String {
            "D-Bus at \(address): \(reason)"
        }

        /// Records a problem once; later identical ones are ignored.
        func log(_ problem: String) {
            state.withLock { state in
                guard !state.problems.contains(problem), state.problems.count < Self.maximumProblems else { return }
                state.problems.append(problem)
            }
        }

        /// Reads one property of any object of a present service; `completion` runs on the queue with the
        /// value, or `nil` when the call failed (the failure is logged).
        func getProperty(
            destination: String,
            path: String,
            interface: String,
            name: String,
            completion: @escaping @Sendable (DBusValue?) -> Void
        ) {
            guard let connection = state.withLock({ $0.connection }) else {
                queue.async { completion(nil) }
                return
            }
            let message = DBusMessage.methodCall(
                destination: destination, path: path, interface: "org.freedesktop.DBus.Properties", member: "Get",
                body: [.string(interface), .string(name)])
            connection.call(message) { [weak self] result in
                switch result {
                case .success(let reply):
                    guard let value = reply.body.first, case .variant(let inner) = value else {
                        self?.log("Get \(interface).\(name) from \(destination) returned \(reply.bodySignature)")
                        completion(nil)
                        return
                    }
                    completion(inner)
                case .failure(let error):
                    self?.log("Get \(interface).\(name) on \(path) failed: \(error)")
                    completion(nil)
                }
            }
        }

        /// Calls a method of a present service; `completion` runs on the queue with the reply's body, or `nil`
        /// when the call failed (the failure is logged).
        func call(
            destination: String,
            path: String,
            interface: String,
            member: String,
            body: [DBusValue] = [],
            completion: @escaping @Sendable ([DBusValue]?) -> Void
        ) {
            guard let connection = state.withLock({ $0.connection }) else {
                queue.async { completion(nil) }
                return
            }
            let message = DBusMessage.methodCall(
                destination: destination, path: path, interface: interface, member: member, body: body)
            connection.call(message) { [weak self] result in
                switch result {
                case .success(let reply): completion(reply.body)
                case .failure(let error):
                    self?.log("\(interface).\(member) on \(path) failed: \(error)")
                    completion(nil)
                }
            }
        }

        private func connect() {
            guard !state.withLock({ $0.isStopped || $0.connection != nil }) else { return }
            let address = self.address
            let connection: DBusConnection
            do {
                connection = try DBusConnection(
                    address: address, queue: queue, clock: configuration.clock, callTimeout: configuration.callTimeout,
                    setupTimeout: configuration.setupTimeout,
                    onSignal: { [weak self] message in self?.handleSignal(message) },
                    onClose: { [weak self] reason in self?.connectionEnded(reason) }
                )
            } catch {
                connectionEnded(error.description)
                return
            }
            let (actions, watch): ([DBusPropertyStateMachine.Action]?, SocketPathSubscription?) = state.withLock {
                state in
                guard !state.isStopped else { return (nil, nil) }
                state.connection = connection
                state.busProblem = nil
                state.retriesAfterAppearance = 0
                defer { state.socketWatch = nil }
                return (extraMatchRules.map { .addMatch($0) } + state.tracker.connected(), state.socketWatch)
            }
            watch?.cancel()
            guard let actions else {
                connection.close()
                return
            }
            SyncGateLog.log(.info, "D-Bus source connected: \(address)")
            perform(actions)
        }

        private func connectionEnded(_ reason: String) {
            log(Self.disconnection(address, reason))
            SyncGateLog.log(.warning, "D-Bus source lost: \(Self.disconnection(address, reason)); reconnecting")
            let actions: [DBusPropertyStateMachine.Action]? = state.withLock { state in
                guard !state.isStopped else { return nil }
                state.connection = nil
                state.busProblem = reason
                return state.tracker.disconnected()
            }
            guard let actions else { return }
            // Scheduled before the absence is published, so whoever sees it can count on the retry's deadline.
            scheduleReconnect()
            let retryAfterAppearance = state.withLock { state in
                guard state.retriesAfterAppearance > 0 else { return false }
                state.retriesAfterAppearance -= 1
                return true
            }
            if retryAfterAppearance {
                queue.asyncAfter(deadline: .now() + .milliseconds(50)) { [weak self] in self?.connect() }
            }
            perform(actions)
        }

        /// Tries again after a delay, and, when the bus is a socket file, as soon as that file is created.
        ///
        /// With the socket watched, a bus that starts later is reached at once, so the timed retry is only
        /// a safety net against a missed notification, after
        /// ``DBusFollowerConfiguration/reconnectDelayWhileWatching`` (an hour by default) instead of
        /// ``DBusFollowerConfiguration/reconnectDelay``. A process that waits for days on a machine
        /// without a system bus is then woken once an hour for it, not every 30 s.
        private func scheduleReconnect() {
            let hasWatch = state.withLock { $0.socketWatch?.awaitsCreation ?? false }
            // A watch that found the socket present (a stale one) is replaced, so that the next creation of
            // the socket is seen; its retries keep the plain delay, since that creation may have been missed.
            let watch =
                hasWatch
                ? nil
                : socketPath.flatMap { path in
                    SocketPathSubscription(path: path, queue: queue) { [weak self] in self?.socketAppeared() }
                }
            let watched = hasWatch || watch?.awaitsCreation == true
            let delay = Self.reconnectDelay(configuration, isSocketWatched: watched)
            let sleep = configuration.clock.sleeper(for: delay)
            let task = Task.detached { [weak self] in
                do { try await sleep() } catch { return }
                guard let self else { return }
                queue.async { self.connect() }
            }
            // What is replaced or refused is cancelled after the lock: a clock's cancellation handler runs
            // on this thread.
            let (cancel, replaced, replacedWatch) = state.withLock { state in
                guard !state.isStopped else { return (true, nil as Task<Void, Never>?, nil as SocketPathSubscription?) }
                let replaced = state.reconnectTask
                state.reconnectTask = task
                var replacedWatch: SocketPathSubscription?
                if let watch {
                    replacedWatch = state.socketWatch
                    state.socketWatch = watch
                }
                return (false, replaced, replacedWatch)
            }
            replaced?.cancel()
            replacedWatch?.cancel()
            if cancel {
                task.cancel()
                watch?.cancel()
            }
        }

        /// The bus socket was created: connect now, and retry briefly if it does not accept yet.
        private func socketAppeared() {
            state.withLock { $0.retriesAfterAppearance = 3 }
            connect()
        }

        /// How long until the timed retry: the longer delay while the socket's creation is watched.
        static func reconnectDelay(_ configuration: DBusFollowerConfiguration, isSocketWatched: Bool) -> Duration {
            isSocketWatched
                ? max(configuration.reconnectDelayWhileWatching, configuration.reconnectDelay)
                : configuration.reconnectDelay
        }

        /// The socket file of the bus address, when it names one.
        private var socketPath: String? {
            guard let entries = try? DBusAddress.parse(address) else { return nil }
            for entry in entries {
                if case .path(let path) = entry.location { return path }
            }
            return nil
        }

        private func handleSignal(_ message: DBusMessage) {
            if message.interface == "org.freedesktop.DBus", message.member == "NameOwnerChanged",
                message.sender == "org.freedesktop.DBus"
            {
                guard message.body.count == 3, let name = message.body[0].string, let new = message.body[2].string
                else {
                    log("NameOwnerChanged with signature \(message.bodySignature) ignored")
                    return
                }
                update { $0.nameOwnerChanged(busName: name, newOwner: new) }
            } else if message.interface == "org.freedesktop.DBus.Properties", message.member == "PropertiesChanged" {
                guard message.body.count == 3, let interface = message.body[0].string,
                    let changed = message.body[1].properties, let invalidated = message.body[2].strings,
                    let sender = message.sender, let path = message.path
                else {
                    log(
                        "PropertiesChanged from \(message.sender ?? "?") with signature \(message.bodySignature) ignored"
                    )
                    return
                }
                update {
                    $0.propertiesChanged(
                        sender: sender, path: path, interface: interface, changed: changed, invalidated: invalidated)
                }
                onOtherSignal?(message)
            } else {
                onOtherSignal?(message)
            }
        }

        private func update(_ body: (inout DBusPropertyStateMachine) -> [DBusPropertyStateMachine.Action]) {
            let actions: [DBusPropertyStateMachine.Action]? = state.withLock { state in
                state.isStopped ? nil : body(&state.tracker)
            }
            if let actions { perform(actions) }
        }

        private func perform(_ actions: [DBusPropertyStateMachine.Action]) {
            guard let connection = state.withLock({ $0.connection }) ?? nil else {
                if actions.contains(.publish) { publish() }
                return
            }
            for action in actions {
                switch action {
                case .addMatch(let rule):
                    connection.addMatch(rule) { [weak self] result in
                        if case .failure(let error) = result { self?.log("AddMatch failed: \(error)") }
                    }
                case .getNameOwner(let index, let generation):
                    let busName = state.withLock { $0.tracker.targets[index].busName }
                    let message = DBusMessage.methodCall(
                        destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                        interface: "org.freedesktop.DBus", member: "GetNameOwner", body: [.string(busName)])
                    connection.call(message) { [weak self] result in
                        guard let self else { return }
                        var owner: String?
                        switch result {
                        case .success(let reply):
                            owner = reply.body.first?.string
                            if owner == nil { log("GetNameOwner(\(busName)) returned \(reply.bodySignature)") }
                        case .failure(let error):
                            if !error.isServiceAbsent { log("GetNameOwner(\(busName)) failed: \(error)") }
                        }
                        update { $0.nameOwnerAnswered(targetIndex: index, generation: generation, owner: owner) }
                    }
                case .getAll(let index, let owner, let generation):
                    let target = state.withLock { $0.tracker.targets[index] }
                    let message = DBusMessage.methodCall(
                        destination: owner, path: target.path, interface: "org.freedesktop.DBus.Properties",
                        member: "GetAll", body: [.string(target.interface)])
                    connection.call(message) { [weak self] result in
                        guard let self else { return }
                        var properties: [String: DBusValue]?
                        switch result {
                        case .success(let reply):
                            properties = reply.body.first?.properties
                            if properties == nil {
                                log(
                                    "GetAll(\(target.interface)) from \(target.busName) returned \(reply.bodySignature)"
                                )
                            }
                        case .failure(let error):
                            log("GetAll(\(target.interface)) on \(target.busName) failed: \(error)")
                        }
                        update {
                            $0.getAllAnswered(targetIndex: index, generation: generation, properties: properties)
                        }
                    }
                case .publish:
                    publish()
                }
            }
        }

        private func publish() {
            let (snapshot, waiters, stopped) = state.withLock { state in
                var waiters: [DispatchSemaphore] = []
                if state.tracker.isSettled || state.connection == nil {
                    state.isSettled = true
                    waiters = state.settledWaiters
                    state.settledWaiters = []
                }
                return (Self.snapshot(of: state), waiters, state.isStopped)
            }
            if !stopped { onUpdate(snapshot) }
            for waiter in waiters { waiter.signal() }
        }

        private static func snapshot(of state: State) -> Snapshot {
            let tracker = state.tracker
            return Snapshot(
                properties: tracker.targets.indices.map { tracker.properties(at: $0) },
                owners: tracker.presences.map { presence in
                    switch presence {
                    case .present(let owner, _), .loading(let owner, _): owner
                    case .absent, .unknown: nil
                    }
                },
                isConnected: state.connection != nil,
                busProblem: state.busProblem
            )
        }

        private static func environment() -> [String: String] {
            var result: [String: String] = [:]
            if let value = getenv("DBUS_SYSTEM_BUS_ADDRESS") {
                result["DBUS_SYSTEM_BUS_ADDRESS"] = String(cString: value)
            }
            return result
        }
    }
#endif
