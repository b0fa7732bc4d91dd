import SyncGate
import SyncGateCLI
import Testing

/// The help texts list the requirement names of the library's table, every one of them, and stay tidy.
@Suite(.timeLimit(.minutes(1)))
struct HelpTextTests {
    /// Every single-bit requirement the library knows: the bits that some part of the environment decides.
    static let knownRequirements: [SyncRequirements] = (0..<64).map { SyncRequirements(rawValue: 1 << $0) }
        .filter { !$0.monitoredParts.isEmpty }

    /// The help texts that list the requirements.
    static let topics: [(any Subcommand.Type)?] = [nil, WaitCommand.self, RunCommand.self]

    /// The name that `line` of a help text explains, if it is a row of the requirement list.
    static func rowName(_ line: Substring) -> String? {
        guard line.hasPrefix("  "), !line.hasPrefix("   ") else { return nil }
        return line.dropFirst(2).split(separator: " ").first.map(String.init)
    }

    @Test func theKnownRequirementsAreThoseTheEnvironmentDecides() {
        let union = Self.knownRequirements.reduce(into: SyncRequirements()) { $0.formUnion($1) }
        #expect(union == SyncRequirements.decided(by: .all))
        #expect(Self.knownRequirements.count == SyncRequirements.members.count)
    }

    @Test(arguments: knownRequirements)
    func everyRequirementIsInEveryHelpAndParsesFromItsName(requirement: SyncRequirements) throws {
        let names = requirement.names
        try #require(names.count == 1, "requirement \(requirement.rawValue) has no single name")
        let name = names[0]
        for topic in Self.topics {
            let rows = HelpText.text(for: topic).split(separator: "\n").compactMap(Self.rowName)
            #expect(rows.contains(name), "help \(topic?.name ?? "syncgate") does not list \(name)")
        }
        #expect(try RequirementListParser.parse(name, option: "--require") == requirement)
        #expect(try RequirementListParser.parse(name.uppercased(), option: "--require") == requirement)
    }

    @Test func everyPresetAndNoneIsInEveryHelp() {
        for topic in Self.topics {
            let rows = HelpText.text(for: topic).split(separator: "\n").compactMap(Self.rowName)
            for entry in SyncRequirements.presets { #expect(rows.contains(entry.name)) }
            #expect(rows.contains("none"))
        }
    }

    /// The requirement rows of the help are the table, in its order, with the summary of each.
    @Test(arguments: topics)
    func theRequirementRowsAreTheTable(topic: (any Subcommand.Type)?) throws {
        let lines = HelpText.text(for: topic).split(separator: "\n")
        let start = try #require(lines.firstIndex { $0.hasPrefix("REQUIREMENTS") })
        let rows = lines[(start + 1)...].prefix { $0.hasPrefix("  ") }
        #expect(rows.count == SyncRequirements.named.count)
        var columns: Set<Int> = []
        for (row, entry) in zip(rows, SyncRequirements.named) {
            let summary = (entry.kind == .preset ? "= " : "") + entry.summary
            #expect(Self.rowName(row) == entry.name)
            #expect(row.hasSuffix(" " + summary))
            columns.insert(row.count - summary.count)
        }
        #expect(columns.count == 1, "the summaries do not start in one column")
    }

    @Test func aRowAddedToTheTableIsKnownToTheHelpAndTheParser() throws {
        let madeUp = SyncRequirements(rawValue: 1 << 40)
        let table = SyncRequirements.named + [SyncRequirementName("made-up", madeUp, holdsWhen: "made up by a test")]
        for topic in Self.topics {
            let lines = HelpText.text(for: topic, table: table).split(separator: "\n")
            #expect(lines.contains { Self.rowName($0) == "made-up" && $0.hasSuffix(" made up by a test") })
        }
        #expect(
            try RequirementListParser.parse("network,MADE_UP", option: "--require", table: table) == [.network, madeUp])
        let known = table.map(\.name).joined(separator: ", ")
        #expect(throws: UsageError("unknown requirement 'x' for --require (known: \(known))")) {
            try RequirementListParser.parse("x", option: "--require", table: table)
        }
    }

    @Test(arguments: [nil] + Subcommands.all.map(Optional.some))
    func helpLinesFitInOneHundredColumns(topic: (any Subcommand.Type)?) {
        for line in HelpText.text(for: topic).split(separator: "\n") {
            #expect(line.count <= 100, "too wide: \(line)")
        }
    }
}
