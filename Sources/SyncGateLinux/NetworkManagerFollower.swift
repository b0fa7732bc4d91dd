import SyncGateCore

#if os(Linux)
    /// Follows NetworkManager's manager object over D-Bus and reports its facts, or `nil` while absent.
    ///
    /// The primary connection's device type is looked up (`Connection.Active.Devices`, then
    /// `Device.DeviceType`) each time `PrimaryConnection` changes; until it is known, the connection type
    /// alone decides the interface kind. With it, the connection's `Id` and, for a Wi-Fi device, its
    /// `ActiveAccessPoint`'s `Ssid` are looked up (the network in use): one round of `Get` calls per change
    /// of the primary connection, never a poll, so an idle system wakes nobody. An access point change
    /// within one active connection (roaming between access points of one network) keeps the SSID read
    /// when the connection became primary, which is the connection's own SSID.
    final class NetworkManagerFollower: DBusServiceFollower {
        /// NetworkManager's bus name.
        static let busName = "org.freedesktop.NetworkManager"
        /// The manager object.
        static let path = "/org/freedesktop/NetworkManager"
        /// The manager interface.
        static let interface = "org.freedesktop.NetworkManager"

        private struct State {
            var facts: NetworkManagerFacts?
            var lookedUpConnection: String?
            var lookupGeneration: UInt64 = 0
            var deviceType: UInt32?
            var connectionID: String?
            var ssid: String?
            var owner: String?
            var reportedProblems: Set<String> = []
        }

        /// The properties this follower watches, on one bus connection.
        let properties: DBusPropertyFollower
        private let state = LockedState(State())

        /// Creates the follower; `onChange` runs on the source's queue with the facts (`nil`: absent).
        init(configuration: DBusFollowerConfiguration, onChange: @escaping @Sendable (NetworkManagerFacts?) -> Void) {
            let box = WeakBox<NetworkManagerFollower>()
            properties = DBusPropertyFollower(
                targets: [.init(busName: Self.busName, path: Self.path, interface: Self.interface)],
                configuration: configuration,
                label: "SyncGate.NetworkManager"
            ) { snapshot in
                box.value?.handle(snapshot, onChange: onChange)
            }
            box.value = self
        }

        /// Why NetworkManager is not used, and the problems met, each once.
        var notes: [String] {
            properties.notes(label: "NetworkManager") { snapshot in
                snapshot.properties.first ?? nil == nil
                    ? ["NetworkManager: \(Self.busName) is not available on \(properties.address)"] : []
            }
        }

        private func handle(
            _ snapshot: DBusPropertyFollower.Snapshot, onChange: @escaping @Sendable (NetworkManagerFacts?) -> Void
        ) {
            guard let properties = snapshot.properties.first ?? nil, let owner = snapshot.owners.first ?? nil else {
                state.withLock { state in
                    state.facts = nil
                    state.lookedUpConnection = nil
                    state.deviceType = nil
                    state.connectionID = nil
                    state.ssid = nil
                    state.lookupGeneration &+= 1
                }
                onChange(nil)
                return
            }
            var facts = NetworkManagerFacts(properties: properties)
            for problem in facts.problems { self.properties.log(problem) }
            facts.problems = []
            let lookup: (path: String, generation: UInt64)? = state.withLock { state in
                state.owner = owner
                var lookup: (String, UInt64)?
                if facts.primaryConnection != state.lookedUpConnection {
                    state.lookedUpConnection = facts.primaryConnection
                    state.deviceType = nil
                    state.connectionID = nil
                    state.ssid = nil
                    state.lookupGeneration &+= 1
                    if let path = facts.primaryConnection, path != "/" {
                        lookup = (path, state.lookupGeneration)
                    }
                }
                facts.primaryDeviceType = state.deviceType
                facts.primaryConnectionID = state.connectionID
                facts.ssid = state.ssid
                state.facts = facts
                return lookup
            }
            onChange(facts)
            if let lookup {
                lookUpConnection(
                    connection: lookup.path, owner: owner, generation: lookup.generation, onChange: onChange)
            }
        }

        /// Looks up the primary connection's `Id`, its first device's type and, for a Wi-Fi device, the
        /// active access point's SSID; each answer of the current `generation` republishes the facts.
        private func lookUpConnection(
            connection: String,
            owner: String,
            generation: UInt64,
            onChange: @escaping @Sendable (NetworkManagerFacts?) -> Void
        ) {
            let active = "org.freedesktop.NetworkManager.Connection.Active"
            properties.getProperty(destination: owner, path: connection, interface: active, name: "Id") {
                [weak self] id in
                guard let self, let id = id?.string else { return }
                record(generation: generation, onChange: onChange) { $0.connectionID = id }
            }
            properties.getProperty(destination: owner, path: connection, interface: active, name: "Devices") {
                [weak self] devices in
                guard let self, let device = devices?.objectPaths?.first else { return }
                properties.getProperty(
                    destination: owner, path: device, interface: "org.freedesktop.NetworkManager.Device",
                    name: "DeviceType"
                ) { [weak self] type in
                    guard let self, let type = type?.uint32 else { return }
                    record(generation: generation, onChange: onChange) { $0.deviceType = type }
                    if type == 2 {
                        lookUpSSID(device: device, owner: owner, generation: generation, onChange: onChange)
                    }
                }
            }
        }

        private func lookUpSSID(
            device: String, owner: String, generation: UInt64,
            onChange: @escaping @Sendable (NetworkManagerFacts?) -> Void
        ) {
            properties.getProperty(
                destination: owner, path: device, interface: "org.freedesktop.NetworkManager.Device.Wireless",
                name: "ActiveAccessPoint"
            ) { [weak self] accessPoint in
                guard let self, let accessPoint = accessPoint?.objectPath, accessPoint != "/" else { return }
                properties.getProperty(
                    destination: owner, path: accessPoint, interface: "org.freedesktop.NetworkManager.AccessPoint",
                    name: "Ssid"
                ) { [weak self] ssid in
                    guard let self, let bytes = ssid?.bytes, !bytes.isEmpty else { return }
                    let text = String(decoding: bytes, as: UTF8.self)
                    record(generation: generation, onChange: onChange) { $0.ssid = text }
                }
            }
        }

        /// Applies a looked-up fact when its lookup is still the current one, and republishes the facts.
        private func record(
            generation: UInt64, onChange: @Sendable (NetworkManagerFacts?) -> Void, _ change: (inout State) -> Void
        ) {
            let facts: NetworkManagerFacts? = state.withLock { state in
                guard state.lookupGeneration == generation, var facts = state.facts else { return nil }
                change(&state)
                facts.primaryDeviceType = state.deviceType
                facts.primaryConnectionID = state.connectionID
                facts.ssid = state.ssid
                state.facts = facts
                return facts
            }
            if let facts { onChange(facts) }
        }
    }
#endif
