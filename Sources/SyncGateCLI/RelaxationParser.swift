import SyncGate

/// Reads the values of `--relax`: `NAME=DUR` drops the requirement or condition NAME after the job has
/// waited for DUR, `NAME=LIST@DUR` replaces it with the requirement list LIST.
///
/// NAME is a single requirement the job requires (`unmetered`), or one of its `--condition` names (a
/// requirement's spelling wins when a condition has the same name); LIST is a requirement list as
/// `--require` reads it; DUR a duration as every option reads it (`3d`, `12h`), positive.
package enum RelaxationParser {
    /// The shape of a value, for error messages.
    static let shape = "expected NAME=DUR or NAME=LIST@DUR"

    /// Parses one value of `option` for a job with `requirements` and `conditions`.
    ///
    /// - Throws: ``UsageError`` naming the option and the value: a malformed value, an unknown name, a
    ///   requirement or condition the job does not require, a replacement that contains the requirement,
    ///   or a duration that is not positive.
    package static func parse(
        _ text: String, option: String, requirements: SyncRequirements, conditions: Set<SyncCondition>
    ) throws(UsageError) -> SyncJobRelaxation {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
            throw UsageError("invalid value '\(text)' for \(option): \(shape)")
        }
        let name = parts[0]
        var replacement: SyncRequirements = []
        var durationText = parts[1]
        if let at = parts[1].lastIndex(of: "@") {
            let list = String(parts[1][..<at])
            durationText = String(parts[1][parts[1].index(after: at)...])
            guard !list.isEmpty, !durationText.isEmpty else {
                throw UsageError("invalid value '\(text)' for \(option): \(shape)")
            }
            replacement = try RequirementListParser.parse(list, option: "\(option) '\(text)'")
        }
        let after = try DurationParser.parse(durationText, option: "\(option) '\(text)'")
        guard after > .zero else {
            throw UsageError("invalid value '\(text)' for \(option): the wait must be positive")
        }
        let relaxed: SyncJobRelaxation.Relaxed
        if let requirement = SyncRequirements(name: name),
            SyncRequirements.members.contains(where: { $0.requirement == requirement })
        {
            guard requirements.contains(requirement) else {
                let required = requirements.isEmpty ? "nothing" : requirements.names.joined(separator: ",")
                throw UsageError(
                    "invalid value '\(text)' for \(option): the job does not require \(name) (it requires \(required))")
            }
            relaxed = .requirement(requirement)
        } else if conditions.contains(SyncCondition(name)) {
            relaxed = .condition(SyncCondition(name))
        } else {
            throw UsageError(
                "invalid value '\(text)' for \(option): '\(name)' is neither a single requirement the job requires "
                    + "nor one of its --condition names")
        }
        let relaxation = SyncJobRelaxation(relaxed, replacement: replacement, after: after)
        if let refusal = relaxation.validationError(requirements: requirements, conditions: conditions) {
            throw UsageError("invalid value '\(text)' for \(option): \(refusal.reason)")
        }
        return relaxation
    }

    /// Parses every value of `option`, refusing two that relax the same requirement or condition.
    package static func parseAll(
        _ texts: [String], option: String, requirements: SyncRequirements, conditions: Set<SyncCondition>
    ) throws(UsageError) -> [SyncJobRelaxation] {
        var relaxations: [SyncJobRelaxation] = []
        for text in texts {
            let relaxation = try parse(text, option: option, requirements: requirements, conditions: conditions)
            if relaxations.contains(where: { $0.relaxed == relaxation.relaxed }) {
                throw UsageError("invalid value '\(text)' for \(option): \(relaxation.relaxed) is relaxed twice")
            }
            relaxations.append(relaxation)
        }
        return relaxations
    }
}
