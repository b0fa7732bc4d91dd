/// The spelling of a single requirement, of a preset, or of no requirements at all, with what it means.
///
/// ``SyncRequirements/named`` is the one table of these spellings, its single requirements read from
/// ``SyncRequirements/descriptors``. ``SyncRequirements/init(name:)``,
/// ``SyncRequirements/names``, ``SyncRequirements/description`` and the `syncgate` tool (its help, its
/// parser and its error messages, `status --json`) all read it, so a requirement added to the table is
/// known everywhere at once.
public struct SyncRequirementName: Sendable, Hashable, CustomStringConvertible {
    /// What a name stands for, read from its requirements.
    public enum Kind: Sendable, Hashable {
        /// A single requirement (one bit of ``SyncRequirements``).
        case requirement
        /// Several requirements under one name, such as `sync-ready`.
        case preset
        /// No requirement at all (`none`); it always holds.
        case nothing
    }

    /// The spelling: lowercase words joined by `-`, such as `external-power`.
    public let name: String
    /// The requirements the name stands for.
    public let requirement: SyncRequirements
    /// When a single requirement holds, or what the empty set means, in a few words; `nil` for a preset.
    private let meaning: String?

    /// Creates a spelling.
    ///
    /// - Parameters:
    ///   - name: the spelling, lowercase words joined by `-`.
    ///   - requirement: the requirements it stands for.
    ///   - holdsWhen: for a single requirement or the empty set, when it holds in a few words (it becomes
    ///     ``summary``); a preset's summary lists its requirements instead.
    public init(_ name: String, _ requirement: SyncRequirements, holdsWhen: String? = nil) {
        self.name = name
        self.requirement = requirement
        self.meaning = holdsWhen
    }

    /// Whether the name stands for one requirement, several, or none.
    public var kind: Kind {
        switch requirement.rawValue.nonzeroBitCount {
        case 0: .nothing
        case 1: .requirement
        default: .preset
        }
    }

    /// One line for help texts: when the requirement holds, or for a preset the names of its requirements
    /// joined by commas (`network,not-low-power,account-ready`).
    public var summary: String {
        if kind != .preset, let meaning { return meaning }
        return requirement.names.joined(separator: ",")
    }

    /// The spelling.
    public var description: String { name }
}

extension SyncRequirements {
    /// Every spelling of requirements: each single requirement in the order of ``descriptors``, then the
    /// presets, then `none`.
    ///
    /// The one table of names: parsing (``init(name:)``), ``names``, ``description``, ``members``,
    /// ``presets`` and the `syncgate` tool derive from it. A single requirement's row comes from its
    /// descriptor (its name, and its meaning as the summary); a preset's row is written here.
    public static let named: [SyncRequirementName] =
        descriptors.map { SyncRequirementName($0.name, $0.requirement, holdsWhen: $0.meaning) } + [
            SyncRequirementName("sync-ready", .syncReady),
            SyncRequirementName("cloud-drive-ready", .cloudDriveReady),
            SyncRequirementName("large-transfer", .largeTransfer),
            SyncRequirementName("none", .none, holdsWhen: "no requirements: always holds"),
        ]

    /// The single requirements of ``named``, in declaration order.
    public static let members: [SyncRequirementName] = named.filter { $0.kind == .requirement }

    /// The presets of ``named``.
    public static let presets: [SyncRequirementName] = named.filter { $0.kind == .preset }
}
