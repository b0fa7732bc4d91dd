import SyncGate

/// Reads requirement lists such as `network,unmetered,external-power` or `sync-ready`.
///
/// Every spelling of a table of ``SyncGate/SyncRequirementName`` (by default
/// ``SyncGate/SyncRequirements/named``: the requirements, the presets and `none`) is accepted; case is
/// ignored and `_` may stand for `-`. Items are separated by commas with optional spaces.
package enum RequirementListParser {
    /// The spelling of the empty list in `table` (`none`), if the table has one.
    package static func noneSpelling(in table: [SyncRequirementName] = SyncRequirements.named) -> String? {
        table.first { $0.kind == .nothing }?.name
    }

    /// Every accepted spelling, in the order of `table`.
    package static func spellings(in table: [SyncRequirementName] = SyncRequirements.named) -> [String] {
        table.map(\.name)
    }

    /// Parses `text`, given to `option`, as a requirement list spelled with the names of `table`.
    ///
    /// - Throws: ``UsageError`` naming the option and the offending item.
    package static func parse(
        _ text: String,
        option: String,
        table: [SyncRequirementName] = SyncRequirements.named
    ) throws(UsageError) -> SyncRequirements {
        let trimmed = text.trimmingSpaces
        guard !trimmed.isEmpty else {
            let hint = noneSpelling(in: table).map { " (use '\($0)' for no requirements)" } ?? ""
            throw UsageError("empty requirement list for \(option)\(hint)")
        }
        var requirements: SyncRequirements = []
        for item in trimmed.split(separator: ",", omittingEmptySubsequences: false) {
            let name = String(item).trimmingSpaces
            guard !name.isEmpty else {
                throw UsageError("empty item in requirement list '\(text)' for \(option)")
            }
            guard let requirement = SyncRequirements(name: name, in: table) else {
                throw UsageError(
                    "unknown requirement '\(name)' for \(option) (known: \(spellings(in: table).joined(separator: ", ")))"
                )
            }
            requirements.formUnion(requirement)
        }
        return requirements
    }

    /// Writes a requirement list the way it is read: `network,unmetered`, or `none` when empty.
    package static func format(_ requirements: SyncRequirements) -> String {
        requirements.isEmpty ? (noneSpelling() ?? "") : requirements.names.joined(separator: ",")
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
