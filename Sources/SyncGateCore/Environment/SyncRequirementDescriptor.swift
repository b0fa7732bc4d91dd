/// One single requirement described once: its bit, its spelling, when it holds, the part of the
/// environment that decides it, and how a status report shows the fact behind it.
///
/// ``SyncRequirements/descriptors`` is the one table of these, and everything else about a requirement
/// derives from it: the spellings (``SyncRequirements/named``, parsing, ``SyncRequirements/names``),
/// ``SyncEnvironmentStatus/satisfiedRequirements``, ``SyncRequirements/decided(by:)``,
/// ``SyncRequirements/monitoredParts``, the demand-driven requirements, and the `syncgate` tool's help,
/// parser, status rows and list of sources.
///
/// Invariants of the table, checked by its tests: each ``requirement`` is a single bit that no other
/// descriptor uses and that matches the public constant of ``SyncRequirements`` of the same name; each
/// ``part`` is a single member of ``MonitoringOptions/members``; each ``name`` is unique.
public struct SyncRequirementDescriptor: Sendable, CustomStringConvertible {
    /// The requirement's bit.
    public let requirement: SyncRequirements
    /// The spelling: lowercase words joined by `-`, such as `external-power`.
    public let name: String
    /// When the requirement holds, in a few words for help texts (at most about 75 characters).
    public let meaning: String
    /// The single part of the environment whose source decides the requirement; while that part is not
    /// monitored the requirement reads as satisfied.
    public let part: MonitoringOptions
    /// Whether the part's source is consulted only while a job or a waiter needs the requirement (see
    /// ``RequirementDemand``).
    public let isDemandDriven: Bool
    /// The fact behind the requirement as a status report shows it.
    public let field: Field
    /// Whether the requirement holds in a status, reading only the fact itself: treating an unmonitored
    /// part as met is ``SyncEnvironmentStatus/satisfiedRequirements``'s job.
    public let holds: @Sendable (SyncEnvironmentStatus) -> Bool

    /// Creates a descriptor.
    ///
    /// - Parameters:
    ///   - requirement: the requirement's bit.
    ///   - name: the spelling, lowercase words joined by `-`.
    ///   - meaning: when it holds, in a few words.
    ///   - part: the single part of the environment that decides it.
    ///   - isDemandDriven: whether its source is read only while someone needs it.
    ///   - field: the fact behind it as a status report shows it.
    ///   - holds: whether it holds in a status.
    public init(
        _ requirement: SyncRequirements,
        name: String,
        meaning: String,
        decidedBy part: MonitoringOptions,
        isDemandDriven: Bool = false,
        field: Field,
        holds: @escaping @Sendable (SyncEnvironmentStatus) -> Bool
    ) {
        self.requirement = requirement
        self.name = name
        self.meaning = meaning
        self.part = part
        self.isDemandDriven = isDemandDriven
        self.field = field
        self.holds = holds
    }

    /// The spelling.
    public var description: String { name }
}
