import SyncGateCore
import SyncGateWire

/// The pure rule that follows some D-Bus objects' properties across their services coming and going.
///
/// For each watched object (bus name, path, interface) it asks for match rules on `NameOwnerChanged`
/// and on `PropertiesChanged`, then for the name's owner; an owner is answered with `GetAll`, and the
/// properties are then kept current from `PropertiesChanged` signals sent by that owner. A service that
/// leaves, a connection that ends, or a call that fails or times out makes its objects absent. Stale
/// replies (from before the owner changed) are recognised by a generation number and ignored.
struct DBusPropertyStateMachine: Sendable, Hashable {
    /// One watched object.
    struct Target: Sendable, Hashable {
        /// The well-known bus name, such as `org.freedesktop.NetworkManager`.
        var busName: String
        /// The object path.
        var path: String
        /// The interface whose properties are followed.
        var interface: String
    }

    /// What is known about one target.
    enum Presence: Sendable, Hashable {
        /// Not asked yet (no connection).
        case unknown
        /// The name has no owner, or its owner did not answer.
        case absent
        /// Owned by `owner`; `GetAll` is in flight.
        case loading(owner: String, generation: UInt64)
        /// Owned by `owner`, with these properties.
        case present(owner: String, properties: [String: DBusValue])
    }

    /// What the shell must do.
    enum Action: Sendable, Hashable {
        /// Call `AddMatch` with this rule.
        case addMatch(String)
        /// Call `GetNameOwner` for the target's bus name.
        case getNameOwner(targetIndex: Int, generation: UInt64)
        /// Call `GetAll` on the target, addressed to `owner`.
        case getAll(targetIndex: Int, owner: String, generation: UInt64)
        /// The presences changed: publish them.
        case publish
    }

    /// The watched objects, in the order given.
    let targets: [Target]
    /// What is known about each target, by index.
    private(set) var presences: [Presence]
    private var generations: [UInt64]

    /// Creates a tracker; every target starts ``Presence/unknown``.
    init(targets: [Target]) {
        self.targets = targets
        presences = Array(repeating: .unknown, count: targets.count)
        generations = Array(repeating: 0, count: targets.count)
    }

    /// The properties of the target at `index`, or `nil` unless it is present.
    func properties(at index: Int) -> [String: DBusValue]? {
        if case .present(_, let properties) = presences[index] { return properties }
        return nil
    }

    /// Whether every target is settled: present with properties or absent.
    var isSettled: Bool {
        presences.allSatisfy { presence in
            switch presence {
            case .present, .absent: true
            case .unknown, .loading: false
            }
        }
    }

    /// The connection is up: subscribe, then ask who owns each name.
    mutating func connected() -> [Action] {
        var actions: [Action] = []
        var names: Set<String> = []
        for target in targets where names.insert(target.busName).inserted {
            actions.append(.addMatch(Self.nameOwnerRule(target.busName)))
        }
        for target in targets {
            actions.append(.addMatch(Self.propertiesRule(target)))
        }
        for index in targets.indices {
            generations[index] &+= 1
            actions.append(.getNameOwner(targetIndex: index, generation: generations[index]))
        }
        return actions
    }

    /// `GetNameOwner` answered: `owner` is the unique name, or `nil` when the name has no owner or the call
    /// failed.
    mutating func nameOwnerAnswered(targetIndex index: Int, generation: UInt64, owner: String?) -> [Action] {
        guard index < targets.count, generations[index] == generation else { return [] }
        return ownerChanged(index: index, owner: owner)
    }

    /// A `NameOwnerChanged` signal for `busName`; an empty `newOwner` means the name was released.
    mutating func nameOwnerChanged(busName: String, newOwner: String) -> [Action] {
        var actions: [Action] = []
        for index in targets.indices where targets[index].busName == busName {
            actions += ownerChanged(index: index, owner: newOwner.isEmpty ? nil : newOwner)
        }
        return Self.coalescePublish(actions)
    }

    /// `GetAll` answered with `properties`, or failed (`nil`).
    mutating func getAllAnswered(targetIndex index: Int, generation: UInt64, properties: [String: DBusValue]?)
        -> [Action]
    {
        guard index < targets.count, generations[index] == generation,
            case .loading(let owner, _) = presences[index]
        else { return [] }
        presences[index] = properties.map { .present(owner: owner, properties: $0) } ?? .absent
        return [.publish]
    }

    /// A `PropertiesChanged(s a{sv} as)` signal from `sender` on `path`.
    mutating func propertiesChanged(
        sender: String,
        path: String,
        interface: String,
        changed: [String: DBusValue],
        invalidated: [String]
    ) -> [Action] {
        var published = false
        for index in targets.indices where targets[index].path == path && targets[index].interface == interface {
            guard case .present(let owner, var properties) = presences[index], owner == sender else { continue }
            properties.merge(changed) { _, new in new }
            for name in invalidated { properties[name] = nil }
            presences[index] = .present(owner: owner, properties: properties)
            published = true
        }
        return published ? [.publish] : []
    }

    /// The connection ended: everything is absent until the next ``connected()``.
    mutating func disconnected() -> [Action] {
        for index in targets.indices {
            generations[index] &+= 1
            presences[index] = .absent
        }
        return [.publish]
    }

    private mutating func ownerChanged(index: Int, owner: String?) -> [Action] {
        generations[index] &+= 1
        guard let owner else {
            presences[index] = .absent
            return [.publish]
        }
        presences[index] = .loading(owner: owner, generation: generations[index])
        return [.getAll(targetIndex: index, owner: owner, generation: generations[index])]
    }

    private static func coalescePublish(_ actions: [Action]) -> [Action] {
        let others = actions.filter { $0 != .publish }
        return others.count == actions.count ? actions : others + [.publish]
    }

    /// The match rule for `NameOwnerChanged` of one name.
    static func nameOwnerRule(_ busName: String) -> String {
        "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',"
            + "member='NameOwnerChanged',path='/org/freedesktop/DBus',arg0='\(busName)'"
    }

    /// The match rule for the standard `PropertiesChanged` of one object and interface.
    static func propertiesRule(_ target: Target) -> String {
        "type='signal',sender='\(target.busName)',interface='org.freedesktop.DBus.Properties',"
            + "member='PropertiesChanged',path='\(target.path)',arg0='\(target.interface)'"
    }
}
