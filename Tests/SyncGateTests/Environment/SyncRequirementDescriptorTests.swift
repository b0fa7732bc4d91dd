import SyncGate
import Testing

@Suite("The table of requirement descriptors", .timeLimit(.minutes(1)))
struct SyncRequirementDescriptorTests {
    /// The public constants with their spellings: each must be the bit of the descriptor of that name.
    static let constants: [(requirement: SyncRequirements, name: String)] = [
        (.network, "network"), (.unmetered, "unmetered"), (.unmeteredConfirmed, "unmetered-confirmed"),
        (.unconstrained, "unconstrained"),
        (.validatedInternet, "validated-internet"), (.notLowPower, "not-low-power"),
        (.externalPower, "external-power"), (.batteryNotLow, "battery-not-low"), (.accountReady, "account-ready"),
        (.cloudDrive, "cloud-drive"), (.storageNotLow, "storage-not-low"), (.deviceIdle, "device-idle"),
        (.notRoaming, "not-roaming"), (.notUnderPressure, "not-under-pressure"), (.notHot, "not-hot"),
    ]

    @Test("every public constant is the bit of its descriptor", arguments: constants)
    func constantMatchesTable(requirement: SyncRequirements, name: String) throws {
        let descriptor = try #require(SyncRequirements.descriptors.first { $0.name == name })
        #expect(descriptor.requirement == requirement)
    }

    @Test("bits, names, keys and labels are unique")
    func unique() {
        let descriptors = SyncRequirements.descriptors
        #expect(descriptors.count == Self.constants.count)
        let union = descriptors.reduce(into: SyncRequirements()) { $0.formUnion($1.requirement) }
        #expect(union.rawValue.nonzeroBitCount == descriptors.count)
        #expect(Set(descriptors.map(\.name)).count == descriptors.count)
        let rowLabels = descriptors.map(\.field.label)
        #expect(Set(rowLabels).count == rowLabels.count)
        let sourceLabels = descriptors.compactMap(\.field.sourceLabel)
        #expect(Set(sourceLabels).count == sourceLabels.count)
        for part in MonitoringOptions.members.map(\.part) {
            let keys = descriptors.filter { $0.part == part }.map(\.field.key)
            #expect(Set(keys).count == keys.count, "\(part)")
        }
    }

    @Test(
        "every descriptor is wired: spelling, part, rule, demand",
        arguments: SyncRequirements.descriptors.map(\.name)
    )
    func wired(name: String) throws {
        let descriptor = try #require(SyncRequirements.descriptors.first { $0.name == name })
        let requirement = descriptor.requirement
        #expect(requirement.rawValue.nonzeroBitCount == 1)
        #expect(SyncRequirements.descriptor(of: requirement)?.name == name)
        // The spelling round-trips and heads the help's row.
        #expect(SyncRequirements(name: name) == requirement)
        let shouted = String(name.uppercased().map { $0 == "-" ? "_" : $0 })
        #expect(SyncRequirements(name: shouted) == requirement)
        #expect(requirement.names == [name])
        let row = try #require(SyncRequirements.named.first { $0.requirement == requirement })
        #expect(row.name == name && row.kind == .requirement && row.summary == descriptor.meaning)
        // One part decides it, and only that part.
        #expect(MonitoringOptions.members.contains { $0.part == descriptor.part })
        #expect(requirement.monitoredParts == descriptor.part)
        #expect(SyncRequirements.decided(by: descriptor.part).contains(requirement))
        #expect(!SyncRequirements.decided(by: MonitoringOptions.all.subtracting(descriptor.part)).contains(requirement))
        // The rule is what satisfiedRequirements reads, in statuses where it holds and where it does not.
        let statuses = SyncRequirementsTests.table.flatMap { $0.satisfying + $0.failing }
        for status in statuses {
            #expect(status.satisfiedRequirements.contains(requirement) == descriptor.holds(status), "\(status)")
        }
        #expect(statuses.contains { descriptor.holds($0) } && statuses.contains { !descriptor.holds($0) })
        // Unmonitored, it reads as met whatever the rule says.
        let unmonitored = SyncEnvironmentStatus(monitoredParts: MonitoringOptions.all.subtracting(descriptor.part))
        #expect(unmonitored.satisfiedRequirements.contains(requirement))
        #expect(descriptor.isDemandDriven == SyncRequirements.demandDriven.contains(requirement))
    }

    @Test("a field's text writes a flag with its words and a word as is")
    func fieldText() throws {
        let power = try #require(SyncRequirements.descriptor(of: .externalPower)).field
        #expect(power.text(in: SyncEnvironmentStatus(power: PowerStatus(isOnExternalPower: true))) == "external power")
        #expect(power.text(in: SyncEnvironmentStatus(power: PowerStatus(isOnExternalPower: false))) == "on battery")
        let roaming = try #require(SyncRequirements.descriptor(of: .notRoaming)).field
        #expect(roaming.text(in: SyncEnvironmentStatus()) == "no")
        let metered = try #require(SyncRequirements.descriptor(of: .unmeteredConfirmed)).field
        #expect(metered.key == "metered")
        #expect(metered.reading(SyncEnvironmentStatus()) == .word("unknown"))
        let guessed = SyncEnvironmentStatus(connectivity: .connected(via: .wifi, metered: .guessedUnmetered))
        #expect(metered.text(in: guessed) == "guessed-unmetered")
        let account = try #require(SyncRequirements.descriptor(of: .accountReady)).field
        #expect(account.reading(SyncEnvironmentStatus(account: .available)) == .word("available"))
        #expect(SyncRequirements.descriptor(of: [.network, .unmetered]) == nil)
    }
}
