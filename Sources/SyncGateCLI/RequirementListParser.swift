import SyncGate

/// Reads requirement lists such as `network,unmetered,external-power` or `sync-ready`.
///
/// Every spelling of ``SyncRequirements/members`` and ``SyncRequirements/presets`` is accepted (case is
/// ignored and `_` may stand for `-`), items are separated by commas with optional spaces, and `none`
/// stands for the empty list, which always holds.
public enum RequirementListParser {
    /// The word for "no requirements".
    public static let noneSpelling = "none"

    /// Every accepted spelling, members first, then presets, then `none`.
    public static var spellings: [String] {
        SyncRequirements.members.map(\.name) + SyncRequirements.presets.map(\.name) + [noneSpelling]
    }

    /// Parses `text`, given to `option`, as a requirement list.
    ///
    /// - Throws: ``UsageError`` naming the option and the offending item.
    public static func parse(_ text: String, option: String) throws(UsageError) -> SyncRequirements {
        let trimmed = text.trimmingSpaces
        guard !trimmed.isEmpty else {
            throw UsageError("empty requirement list for \(option) (use '\(noneSpelling)' for no requirements)")
        }
        var requirements: SyncRequirements = []
        for item in trimmed.split(separator: ",", omittingEmptySubsequences: false) {
            let name = String(item).trimmingSpaces
            guard !name.isEmpty else {
                throw UsageError("empty item in requirement list '\(text)' for \(option)")
            }
            if name.lowercased() == noneSpelling { continue }
            guard let requirement = SyncRequirements(name: name) else {
                throw UsageError(
                    "unknown requirement '\(name)' for \(option) (known: \(spellings.joined(separator: ", ")))"
                )
            }
            requirements.formUnion(requirement)
        }
        return requirements
    }

    /// Writes a requirement list the way it is read: `network,unmetered`, or `none` when empty.
    public static func format(_ requirements: SyncRequirements) -> String {
        requirements.isEmpty ? noneSpelling : requirements.names.joined(separator: ",")
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
