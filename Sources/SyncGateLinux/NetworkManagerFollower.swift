import SyncGateCore

#if os(Linux)
    /// Follows NetworkManager's manager object over D-Bus and reports its facts, or `nil` while absent.
    ///
    /// The primary connection's device type is looked up (`Connection.Active.Devices`, then
    /// `Device.DeviceType`) each time `PrimaryConnection` changes; until it is known, the connection type
    /// alone decides the interface kind.
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
                    state.lookupGeneration &+= 1
                    if let path = facts.primaryConnection, path != "/" {
                        lookup = (path, state.lookupGeneration)
                    }
                }
                facts.primaryDeviceType = state.deviceType
                state.facts = facts
                return lookup
            }
            onChange(facts)
            if let lookup {
                lookUpDeviceType(
                    connection: lookup.path, owner: owner, generation: lookup.generation, onChange: onChange)
            }
        }

        private func lookUpDeviceType(
            connection: String,
            owner: String,
            generation: UInt64,
            onChange: @escaping @Sendable (NetworkManagerFacts?) -> Void
        ) {
            properties.getProperty(
                destination: owner, path: connection, interface: "org.freedesktop.NetworkManager.Connection.Active",
                name: "Devices"
            ) { [weak self] devices in
                guard let self, let device = devices?.objectPaths?.first else { return }
                properties.getProperty(
                    destination: owner, path: device, interface: "org.freedesktop.NetworkManager.Device",
                    name: "DeviceType"
                ) { [weak self] type in
                    guard let self, let type = type?.uint32 else { return }
                    let facts: NetworkManagerFacts? = state.withLock { state in
                        guard state.lookupGeneration == generation, var facts = state.facts else { return nil }
                        state.deviceType = type
                        facts.primaryDeviceType = type
                        state.facts = facts
                        return facts
                    }
                    if let facts { onChange(facts) }
                }
            }
        }
    }
#endif
