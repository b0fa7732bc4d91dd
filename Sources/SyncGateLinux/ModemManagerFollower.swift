import SyncGateCore

#if os(Linux)
    import SyncGateWire

    /// Follows ModemManager over D-Bus and reports its primary modem's 3GPP registration state, or `nil`
    /// while ModemManager is absent.
    ///
    /// Modems come and go under changing object paths (`/org/freedesktop/ModemManager1/Modem/N`), so the
    /// follower watches the manager object's presence and reads every modem with the object manager's
    /// `GetManagedObjects`, again whenever ModemManager signals that a modem's 3GPP properties changed or
    /// that objects were added or removed (ModemManager's signals are rare: registration changes, not
    /// traffic). Replies from before a newer read are dropped by a generation number.
    final class ModemManagerFollower: DBusServiceFollower {
        /// ModemManager's bus name.
        static let busName = "org.freedesktop.ModemManager1"
        /// The manager object, which is also the object manager of the modems.
        static let path = "/org/freedesktop/ModemManager1"
        /// The manager interface.
        static let interface = "org.freedesktop.ModemManager1"

        /// Every signal ModemManager sends from its objects (the modems' `PropertiesChanged`, the object
        /// manager's `InterfacesAdded` and `InterfacesRemoved`).
        static let signalRule = "type='signal',sender='\(busName)',path_namespace='\(path)'"

        private struct State {
            var owner: String?
            var generation: UInt64 = 0
        }

        /// The properties this follower watches, on one bus connection.
        let properties: DBusPropertyFollower
        private let state = LockedState(State())

        /// Creates the follower; `onChange` runs on the source's queue with the facts (`nil`: absent).
        init(configuration: DBusFollowerConfiguration, onChange: @escaping @Sendable (ModemManagerFacts?) -> Void) {
            let box = WeakBox<ModemManagerFollower>()
            properties = DBusPropertyFollower(
                targets: [.init(busName: Self.busName, path: Self.path, interface: Self.interface)],
                configuration: configuration,
                label: "SyncGate.ModemManager",
                extraMatchRules: [Self.signalRule],
                onOtherSignal: { message in box.value?.handle(signal: message, onChange: onChange) },
                onUpdate: { snapshot in box.value?.handle(snapshot, onChange: onChange) }
            )
            box.value = self
        }

        /// Why ModemManager is not used, and the problems met, each once.
        var notes: [String] {
            properties.notes(label: "ModemManager") { snapshot in
                snapshot.properties.first ?? nil == nil
                    ? ["ModemManager: \(Self.busName) is not available on \(properties.address)"] : []
            }
        }

        private func handle(
            _ snapshot: DBusPropertyFollower.Snapshot, onChange: @escaping @Sendable (ModemManagerFacts?) -> Void
        ) {
            let owner = (snapshot.properties.first ?? nil) == nil ? nil : snapshot.owners.first ?? nil
            let changed = state.withLock { state in
                guard state.owner != owner else { return false }
                state.owner = owner
                state.generation &+= 1
                return true
            }
            guard changed else { return }
            if owner == nil {
                onChange(nil)
            } else {
                reload(onChange: onChange)
            }
        }

        private func handle(signal message: DBusMessage, onChange: @escaping @Sendable (ModemManagerFacts?) -> Void) {
            let owner = state.withLock { $0.owner }
            guard let owner, message.sender == owner else { return }
            let relevant: Bool
            switch (message.interface, message.member) {
            case ("org.freedesktop.DBus.Properties", "PropertiesChanged"):
                let interface = message.body.first?.string
                relevant =
                    interface == ModemManagerMapping.modem3gppInterface
                    || interface == ModemManagerMapping.modemInterface
            case ("org.freedesktop.DBus.ObjectManager", "InterfacesAdded"),
                ("org.freedesktop.DBus.ObjectManager", "InterfacesRemoved"):
                relevant = true
            default:
                relevant = false
            }
            guard relevant else { return }
            state.withLock { $0.generation &+= 1 }
            reload(onChange: onChange)
        }

        /// Reads every modem; the newest read wins.
        private func reload(onChange: @escaping @Sendable (ModemManagerFacts?) -> Void) {
            guard let (owner, generation) = state.withLock({ state in state.owner.map { ($0, state.generation) } })
            else { return }
            properties.call(
                destination: owner, path: Self.path, interface: "org.freedesktop.DBus.ObjectManager",
                member: "GetManagedObjects"
            ) { [weak self] body in
                guard let self else { return }
                var facts: ModemManagerFacts = .noModem
                if let body {
                    if let read = ModemManagerMapping.facts(managedObjects: body) {
                        facts = read
                    } else {
                        properties.log("GetManagedObjects returned an unexpected shape; no modem assumed")
                    }
                }
                let current = state.withLock { $0.generation == generation && $0.owner == owner }
                if current { onChange(facts) }
            }
        }
    }
#endif
