/// The part of a ``SyncRequirementDescriptor`` that is read on every status change: the requirement's bit,
/// the bits of the part that decides it, and its rule.
///
/// ``table`` is derived once from ``SyncRequirements/descriptors`` and holds no strings, so evaluating
/// every requirement against a status copies no descriptor and retains nothing but the rules' (empty)
/// closure contexts. It adds no fact of its own: the descriptors stay the one place a requirement is
/// described.
struct SyncRequirementRule: Sendable {
    /// The requirement's bit.
    let requirement: SyncRequirements
    /// The part that decides the requirement.
    let part: MonitoringOptions
    /// Whether the requirement holds in a status, reading only the fact itself.
    let holds: @Sendable (SyncEnvironmentStatus) -> Bool

    /// The rules of ``SyncRequirements/descriptors``, in the same order.
    static let table: [SyncRequirementRule] = SyncRequirements.descriptors.map {
        SyncRequirementRule(requirement: $0.requirement, part: $0.part, holds: $0.holds)
    }
}
