import SyncGate
import SyncGateCLI
import Testing

@Suite(.timeLimit(.minutes(1)))
struct RequirementListParserTests {
    static let valid: [(String, SyncRequirements)] = [
        ("network", .network),
        ("network,unmetered,external-power", [.network, .unmetered, .externalPower]),
        (" network , unmetered ", [.network, .unmetered]),
        ("network,unmetered-confirmed", [.network, .unmeteredConfirmed]),
        ("UNMETERED_CONFIRMED,unmetered", [.unmetered, .unmeteredConfirmed]),
        ("not-under-pressure,not-hot", [.notUnderPressure, .notHot]),
        ("sync-ready", .syncReady),
        ("cloud-drive-ready", .cloudDriveReady),
        ("large-transfer,external-power", [.largeTransfer, .externalPower]),
        ("NOT_LOW_POWER", .notLowPower),
        ("none", .none),
        ("none,network", .network),
        (
            "account-ready,cloud-drive,battery-not-low,unconstrained",
            [.accountReady, .cloudDrive, .batteryNotLow, .unconstrained]
        ),
    ]

    @Test(arguments: valid)
    func parsesValidLists(text: String, expected: SyncRequirements) throws {
        #expect(try RequirementListParser.parse(text, option: "--require") == expected)
    }

    @Test func everyMemberAndPresetHasASpelling() throws {
        for entry in SyncRequirements.members + SyncRequirements.presets {
            #expect(try RequirementListParser.parse(entry.name, option: "--require") == entry.requirement)
        }
    }

    static let known =
        "network, unmetered, unmetered-confirmed, unconstrained, validated-internet, not-low-power, external-power, battery-not-low, "
        + "account-ready, "
        + "cloud-drive, storage-not-low, device-idle, not-roaming, not-under-pressure, not-hot, sync-ready, cloud-drive-ready, large-transfer, none"

    @Test(arguments: [
        ("", "empty requirement list for --require (use 'none' for no requirements)"),
        ("  ", "empty requirement list for --require (use 'none' for no requirements)"),
        ("network,,unmetered", "empty item in requirement list 'network,,unmetered' for --require"),
        ("network,", "empty item in requirement list 'network,' for --require"),
        ("wifi", "unknown requirement 'wifi' for --require (known: \(known))"),
        ("network,power", "unknown requirement 'power' for --require (known: \(known))"),
        ("unmetered-confirm", "unknown requirement 'unmetered-confirm' for --require (known: \(known))"),
        ("confirmed-unmetered", "unknown requirement 'confirmed-unmetered' for --require (known: \(known))"),
        ("unmetered confirmed", "unknown requirement 'unmetered confirmed' for --require (known: \(known))"),
        ("unmetered-confirmed,", "empty item in requirement list 'unmetered-confirmed,' for --require"),
    ])
    func rejectsInvalidLists(text: String, message: String) {
        #expect(throws: UsageError(message)) { try RequirementListParser.parse(text, option: "--require") }
    }

    @Test func formatsLists() {
        #expect(RequirementListParser.format([]) == "none")
        #expect(RequirementListParser.format(.largeTransfer) == "network,unmetered,unconstrained")
    }

    @Test("`none` on the command line is the library's `.none`")
    func noneAgrees() throws {
        #expect(try RequirementListParser.parse("none", option: "--require") == SyncRequirements.none)
        #expect(RequirementListParser.format(.none) == "none")
        #expect(RequirementListParser.noneSpelling() == "none")
    }
}
