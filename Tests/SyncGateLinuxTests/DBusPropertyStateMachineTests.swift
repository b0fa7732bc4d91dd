import Testing

@testable import SyncGateCore

@testable import SyncGateLinux

/// The property tracker's rules, step by step, without a bus.
@Suite(.timeLimit(.minutes(1)))
struct DBusPropertyStateMachineTests {
    static let nm = DBusPropertyStateMachine.Target(
        busName: "org.freedesktop.NetworkManager", path: "/org/freedesktop/NetworkManager",
        interface: "org.freedesktop.NetworkManager")
    static let upower = DBusPropertyStateMachine.Target(
        busName: "org.freedesktop.UPower", path: "/org/freedesktop/UPower", interface: "org.freedesktop.UPower")

    @Test func subscribesBeforeAskingForOwners() {
        var tracker = DBusPropertyStateMachine(targets: [Self.nm, Self.upower])
        let actions = tracker.connected()
        #expect(
            actions == [
                .addMatch(DBusPropertyStateMachine.nameOwnerRule(Self.nm.busName)),
                .addMatch(DBusPropertyStateMachine.nameOwnerRule(Self.upower.busName)),
                .addMatch(DBusPropertyStateMachine.propertiesRule(Self.nm)),
                .addMatch(DBusPropertyStateMachine.propertiesRule(Self.upower)),
                .getNameOwner(targetIndex: 0, generation: 1),
                .getNameOwner(targetIndex: 1, generation: 1),
            ])
        #expect(!tracker.isSettled)
        #expect(
            DBusPropertyStateMachine.propertiesRule(Self.nm)
                == "type='signal',sender='org.freedesktop.NetworkManager',interface='org.freedesktop.DBus.Properties',"
                + "member='PropertiesChanged',path='/org/freedesktop/NetworkManager',arg0='org.freedesktop.NetworkManager'"
        )
    }

    @Test func followsAServiceThroughItsLife() {
        var tracker = DBusPropertyStateMachine(targets: [Self.nm])
        _ = tracker.connected()
        #expect(tracker.nameOwnerAnswered(targetIndex: 0, generation: 1, owner: nil) == [.publish])
        #expect(tracker.presences == [.absent])
        #expect(tracker.isSettled)

        // The service starts.
        #expect(
            tracker.nameOwnerChanged(busName: Self.nm.busName, newOwner: ":1.7")
                == [.getAll(targetIndex: 0, owner: ":1.7", generation: 3)])
        // A signal while GetAll is in flight is older than the reply: ignored.
        #expect(
            tracker.propertiesChanged(
                sender: ":1.7", path: Self.nm.path, interface: Self.nm.interface, changed: ["Metered": .uint32(1)],
                invalidated: []
            ).isEmpty)
        #expect(
            tracker.getAllAnswered(targetIndex: 0, generation: 3, properties: ["Metered": .uint32(2)]) == [.publish])
        #expect(tracker.properties(at: 0) == ["Metered": .uint32(2)])

        // Changes from the owner merge; from anyone else, or on another path or interface, they do not.
        #expect(
            tracker.propertiesChanged(
                sender: ":1.8", path: Self.nm.path, interface: Self.nm.interface, changed: ["Metered": .uint32(1)],
                invalidated: []
            ).isEmpty)
        #expect(
            tracker.propertiesChanged(
                sender: ":1.7", path: "/other", interface: Self.nm.interface, changed: ["Metered": .uint32(1)],
                invalidated: []
            ).isEmpty)
        #expect(
            tracker.propertiesChanged(
                sender: ":1.7", path: Self.nm.path, interface: Self.nm.interface,
                changed: ["Metered": .uint32(1), "State": .uint32(70)], invalidated: []
            ) == [.publish])
        #expect(
            tracker.propertiesChanged(
                sender: ":1.7", path: Self.nm.path, interface: Self.nm.interface, changed: [:], invalidated: ["State"]
            ) == [.publish])
        #expect(tracker.properties(at: 0) == ["Metered": .uint32(1)])

        // The service leaves, and a late GetAll reply from before is ignored.
        #expect(tracker.nameOwnerChanged(busName: Self.nm.busName, newOwner: "") == [.publish])
        #expect(tracker.getAllAnswered(targetIndex: 0, generation: 3, properties: [:]).isEmpty)
        #expect(tracker.properties(at: 0) == nil)
    }

    @Test func failuresAndDisconnectsMakeTargetsAbsent() {
        var tracker = DBusPropertyStateMachine(targets: [Self.nm, Self.upower])
        _ = tracker.connected()
        _ = tracker.nameOwnerAnswered(targetIndex: 0, generation: 1, owner: ":1.1")
        _ = tracker.nameOwnerAnswered(targetIndex: 1, generation: 1, owner: ":1.2")
        // A GetAll that failed or timed out: absent.
        #expect(tracker.getAllAnswered(targetIndex: 0, generation: 2, properties: nil) == [.publish])
        #expect(tracker.presences[0] == .absent)
        #expect(
            tracker.getAllAnswered(targetIndex: 1, generation: 2, properties: ["OnBattery": .boolean(true)]) == [
                .publish
            ])
        #expect(tracker.disconnected() == [.publish])
        #expect(tracker.presences == [.absent, .absent])
        // Stale answers from the old connection are ignored after a reconnection.
        _ = tracker.connected()
        #expect(tracker.nameOwnerAnswered(targetIndex: 1, generation: 2, owner: ":1.2").isEmpty)
        #expect(
            tracker.nameOwnerAnswered(targetIndex: 1, generation: 4, owner: ":1.9")
                == [.getAll(targetIndex: 1, owner: ":1.9", generation: 5)])
    }
}
