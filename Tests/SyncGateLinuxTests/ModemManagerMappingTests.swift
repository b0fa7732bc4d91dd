import Testing

@testable import SyncGateCore

@testable import SyncGateLinux
@testable import SyncGateWire

/// ModemManager's pure rules: which registration states roam, which modem is primary, and when the
/// connection in use counts as roaming.
@Suite(.timeLimit(.minutes(1)))
struct ModemManagerMappingTests {
    @Test(
        "registration states",
        arguments: [
            (0, false), (1, false), (2, false), (3, false), (4, false), (5, true), (6, false), (7, true), (8, false),
            (9, false), (10, true), (11, false),
        ] as [(UInt32, Bool)])
    func registrationStates(state: UInt32, roaming: Bool) {
        #expect(ModemManagerMapping.isRoaming(registrationState: state) == roaming)
    }

    /// A `GetManagedObjects` body with one modem per entry: its number, `Modem.State` and registration state.
    static func managedObjects(_ modems: [(number: Int, state: Int32, registration: UInt32?)]) -> [DBusValue] {
        let entries = modems.map { modem in
            var interfaces: [DBusDictionaryEntry] = [
                DBusDictionaryEntry(
                    key: .string(ModemManagerMapping.modemInterface), value: .properties(["State": .int32(modem.state)])
                )
            ]
            if let registration = modem.registration {
                interfaces.append(
                    DBusDictionaryEntry(
                        key: .string(ModemManagerMapping.modem3gppInterface),
                        value: .properties(["RegistrationState": .uint32(registration)])))
            }
            return DBusDictionaryEntry(
                key: .objectPath("/org/freedesktop/ModemManager1/Modem/\(modem.number)"),
                value: .dictionary(key: .string, value: .dictionary(key: .string, value: .variant), interfaces))
        }
        return [
            .dictionary(
                key: .objectPath, value: .dictionary(key: .string, value: .dictionary(key: .string, value: .variant)),
                entries)
        ]
    }

    @Test(
        "the primary modem: a connected one first, then the lowest number; only 3GPP modems count",
        arguments: [
            ([], nil, nil),
            ([(0, 8, 1)], 0, 1),
            ([(3, 8, 5), (1, 8, 1)], 1, 1),
            ([(10, 8, 1), (2, 8, 5)], 2, 5),  // numbers, not strings: 2 before 10
            ([(0, 8, 1), (1, 11, 5)], 1, 5),  // CONNECTED 11 wins
            ([(0, 11, nil), (1, 8, 7)], 1, 7),  // a modem without 3GPP (CDMA only) is skipped
        ] as [([(Int, Int32, UInt32?)], Int?, UInt32?)])
    func primaryModem(modems: [(Int, Int32, UInt32?)], primary: Int?, registration: UInt32?) throws {
        let facts = try #require(ModemManagerMapping.facts(managedObjects: Self.managedObjects(modems)))
        #expect(facts.primaryModem == primary.map { "/org/freedesktop/ModemManager1/Modem/\($0)" })
        #expect(facts.registrationState == registration)
    }

    @Test func unexpectedShapeIsRefused() {
        #expect(ModemManagerMapping.facts(managedObjects: []) == nil)
        #expect(ModemManagerMapping.facts(managedObjects: [.string("no")]) == nil)
    }

    @Test(
        "roaming holds only on a cellular path through a roaming modem",
        arguments: [
            (ConnectivityStatus.connected(via: .cellular, isExpensive: true), 5, true),
            (.connected(via: .cellular, isExpensive: true), 1, false),
            (.connected(via: .wifi), 5, false),
            (.disconnected, 5, false),
        ] as [(ConnectivityStatus, UInt32, Bool)])
    func apply(status: ConnectivityStatus, registration: UInt32, roaming: Bool) {
        let facts = ModemManagerFacts(primaryModem: "/m/0", registrationState: registration)
        let (merged, origin) = ModemManagerMapping.apply(facts, to: status)
        #expect(merged.isRoaming == roaming)
        #expect(merged.with(isRoaming: false) == status)
        #expect(origin == .modemManager)
        let (absent, absentOrigin) = ModemManagerMapping.apply(nil, to: status.with(isRoaming: true))
        #expect(!absent.isRoaming)
        #expect(absentOrigin == .defaultValue)
    }
}
