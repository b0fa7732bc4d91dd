import SyncGateCore

#if os(Linux)
    /// Follows power-profiles-daemon (current and legacy bus names), UPower and systemd-logind's manager
    /// (its `IdleHint`) over D-Bus.
    ///
    /// The current name `org.freedesktop.UPower.PowerProfiles` is preferred; the legacy
    /// `net.hadess.PowerProfiles` is used when only it is present. Both are watched, so either may come
    /// and go.
    final class PowerDaemonFollower: DBusServiceFollower {
        /// The watched objects: current profiles name, legacy profiles name, UPower, logind's manager.
        static let targets: [DBusPropertyStateMachine.Target] = [
            .init(
                busName: "org.freedesktop.UPower.PowerProfiles", path: "/org/freedesktop/UPower/PowerProfiles",
                interface: "org.freedesktop.UPower.PowerProfiles"),
            .init(
                busName: "net.hadess.PowerProfiles", path: "/net/hadess/PowerProfiles",
                interface: "net.hadess.PowerProfiles"),
            .init(
                busName: "org.freedesktop.UPower", path: "/org/freedesktop/UPower", interface: "org.freedesktop.UPower"),
            .init(
                busName: "org.freedesktop.login1", path: "/org/freedesktop/login1",
                interface: "org.freedesktop.login1.Manager"),
        ]

        /// The properties this follower watches, on one bus connection.
        let properties: DBusPropertyFollower

        /// Creates the follower; `onChange` runs on the source's queue with the facts.
        init(configuration: DBusFollowerConfiguration, onChange: @escaping @Sendable (PowerDBusFacts) -> Void) {
            let box = WeakBox<DBusPropertyFollower>()
            properties = DBusPropertyFollower(
                targets: Self.targets, configuration: configuration, label: "SyncGate.PowerDBus"
            ) {
                snapshot in
                onChange(Self.facts(from: snapshot) { box.value?.log($0) })
            }
            box.value = properties
        }

        /// Why the daemons are not used, and the problems met, each once.
        var notes: [String] {
            properties.notes(label: "power daemons") { snapshot in
                var notes: [String] = []
                if snapshot.properties[0] == nil && snapshot.properties[1] == nil {
                    notes.append("power-profiles-daemon is not available on \(properties.address)")
                }
                if snapshot.properties[2] == nil {
                    notes.append("UPower is not available on \(properties.address)")
                }
                if snapshot.properties.count <= 3 || snapshot.properties[3] == nil {
                    notes.append("systemd-logind is not available on \(properties.address)")
                }
                return notes
            }
        }

        /// The facts in a snapshot; a property of an unexpected type is reported through `log` and ignored.
        static func facts(from snapshot: DBusPropertyFollower.Snapshot, log: (String) -> Void) -> PowerDBusFacts {
            var facts = PowerDBusFacts()
            for index in [0, 1] {
                guard let properties = snapshot.properties[index], let raw = properties["ActiveProfile"] else {
                    continue
                }
                guard let profile = raw.string else {
                    log(
                        "\(targets[index].busName) ActiveProfile has type \(raw.type) (value \(raw)), expected s; ignored"
                    )
                    continue
                }
                facts.activeProfile = profile
                facts.profilesBusName = targets[index].busName
                break
            }
            if let properties = snapshot.properties[2], let raw = properties["OnBattery"] {
                if let onBattery = raw.bool {
                    facts.onBattery = onBattery
                } else {
                    log("UPower OnBattery has type \(raw.type) (value \(raw)), expected b; ignored")
                }
            }
            if snapshot.properties.count > 3, let properties = snapshot.properties[3], let raw = properties["IdleHint"]
            {
                if let idle = raw.bool {
                    facts.idleHint = idle
                } else {
                    log("systemd-logind IdleHint has type \(raw.type) (value \(raw)), expected b; ignored")
                }
            }
            return facts
        }
    }
#endif
