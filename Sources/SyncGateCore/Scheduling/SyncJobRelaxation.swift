/// A fallback for one requirement or condition of a job: once the job has waited for ``after`` without
/// starting, the requirement is dropped or replaced by weaker ones.
///
/// ```swift
/// var options = SyncJobOptions(requires: [.network, .unmetered, .externalPower])
/// options.relaxations = [
///     .drop(.unmetered, after: .seconds(3 * 86_400)),
///     .replace(.externalPower, with: .batteryNotLow, after: .seconds(12 * 3_600)),
/// ]
/// ```
///
/// The wait's clock starts when the job is submitted; for a periodic job it starts anew when each
/// period's window opens, and every period begins with the job's full requirements. A durable job counts
/// the wait from its submission's wall-clock instant, so the time its process was not running counts too.
/// When a relaxation takes effect, the scheduler reports ``SyncSchedulerEvent/relaxed(id:relaxation:)``
/// and judges the job again at once, on its weaker requirements. A relaxation that falls due while an
/// attempt runs changes nothing for that attempt; it takes effect when the job waits again (a retry or a
/// requeue). Valid when ``relaxed`` is one requirement or condition of the job, ``after`` is positive,
/// the ``replacement`` does not contain the requirement it replaces nor add a requirement read only on
/// demand (``SyncRequirements/storageNotLow``) that the job does not require already, no two
/// relaxations of a job relax the same thing, and a job has at most 64 (``SyncJobOptions/validationError``).
public struct SyncJobRelaxation: Sendable, Hashable, CustomStringConvertible {
    /// What a relaxation relaxes.
    public enum Relaxed: Sendable, Hashable, CustomStringConvertible {
        /// A single requirement (one bit of ``SyncRequirements``).
        case requirement(SyncRequirements)
        /// An app-defined condition.
        case condition(SyncCondition)

        /// The requirement's spelling (`unmetered`) or the condition's name.
        public var description: String {
            switch self {
            case .requirement(let requirement): requirement.names.joined(separator: ",")
            case .condition(let condition): condition.name
            }
        }
    }

    /// The requirement or condition that is relaxed.
    public var relaxed: Relaxed
    /// The requirements that stand in for it once it is relaxed; empty when it is dropped.
    public var replacement: SyncRequirements
    /// How long the job waits with its full requirements before this relaxation takes effect.
    public var after: Duration

    /// Creates a relaxation.
    ///
    /// - Parameters:
    ///   - relaxed: the requirement or condition relaxed.
    ///   - replacement: what stands in for it; empty to drop it.
    ///   - after: how long the job waits before it takes effect.
    public init(_ relaxed: Relaxed, replacement: SyncRequirements = [], after: Duration) {
        self.relaxed = relaxed
        self.replacement = replacement
        self.after = after
    }

    /// Drops `requirement` after the job has waited for `after`.
    public static func drop(_ requirement: SyncRequirements, after: Duration) -> SyncJobRelaxation {
        SyncJobRelaxation(.requirement(requirement), after: after)
    }

    /// Drops the app-defined `condition` after the job has waited for `after`.
    public static func drop(_ condition: SyncCondition, after: Duration) -> SyncJobRelaxation {
        SyncJobRelaxation(.condition(condition), after: after)
    }

    /// Replaces `requirement` with the weaker `replacement` after the job has waited for `after`.
    public static func replace(
        _ requirement: SyncRequirements, with replacement: SyncRequirements, after: Duration
    ) -> SyncJobRelaxation {
        SyncJobRelaxation(.requirement(requirement), replacement: replacement, after: after)
    }

    /// What the relaxation does, without its time: `unmetered dropped`, `external-power → battery-not-low`.
    public var change: String {
        replacement.isEmpty ? "\(relaxed) dropped" : "\(relaxed) → \(replacement.names.joined(separator: ","))"
    }

    /// A line such as `unmetered dropped after 3d` or `external-power → battery-not-low after 12h`.
    public var description: String {
        "\(change) after \(Self.format(after))"
    }

    /// The first problem with the relaxation for a job with `requirements` and `conditions`, naming the
    /// field and the value, or `nil`.
    package func validationError(
        requirements: SyncRequirements, conditions: Set<SyncCondition>
    ) -> SyncJobRefusal? {
        if after <= .zero {
            return .option("relaxations", "\(self)", "relaxations: after must be positive, got \(after) for \(relaxed)")
        }
        let demanded = replacement.intersection(.demandDriven).subtracting(requirements)
        if !demanded.isEmpty {
            // Its source reads only while a job requires it from submission on (``RequirementDemand``).
            return .option(
                "relaxations", "\(self)",
                "relaxations: the replacement of \(relaxed) must not add \(demanded), which is read only for jobs "
                    + "that require it when submitted")
        }
        switch relaxed {
        case .requirement(let requirement):
            guard requirement.rawValue.nonzeroBitCount == 1 else {
                return .option(
                    "relaxations", "\(requirement)", "relaxations must name a single requirement, got \(requirement)")
            }
            guard requirements.contains(requirement) else {
                return .option(
                    "relaxations", "\(relaxed)",
                    "relaxations name \(relaxed), which the job does not require (requires \(requirements))")
            }
            if replacement.contains(requirement) {
                return .option(
                    "relaxations", "\(self)", "relaxations: the replacement of \(relaxed) must not contain it")
            }
        case .condition(let condition):
            guard conditions.contains(condition) else {
                return .option(
                    "relaxations", "\(relaxed)",
                    "relaxations name condition \(relaxed), which the job does not require")
            }
        }
        return nil
    }

    /// A duration in its two largest units: `3d`, `2d 3h`, `12h`, `5m 30s`, `45s`, `0s`; a part of a second
    /// is rounded up, so what is left never reads as nothing before it is.
    public static func format(_ duration: Duration) -> String {
        // Within 0...seconds(Int64.max), whose parts an Int64 holds; a negative duration reads as 0s.
        let (seconds, attoseconds) = min(max(duration, .zero), .seconds(Int64.max)).components
        var total = max(0, seconds + (attoseconds > 0 && seconds < .max ? 1 : 0))
        let units: [(String, Int64)] = [("d", 86_400), ("h", 3_600), ("m", 60), ("s", 1)]
        var parts: [String] = []
        for (name, size) in units where total >= size || (name == "s" && parts.isEmpty) {
            guard parts.count < 2 else { break }
            parts.append("\(total / size)\(name)")
            total %= size
            if total == 0 { break }
        }
        return parts.joined(separator: " ")
    }
}

extension SyncJobRelaxation {
    /// Where one relaxation of a job stands at one moment.
    ///
    /// Instants are offsets on the scheduler's clock from the moment the scheduler was created, as in
    /// ``SyncJobInfo``.
    public struct Status: Sendable, Hashable, CustomStringConvertible {
        /// The relaxation.
        public var relaxation: SyncJobRelaxation
        /// When it takes effect (or took effect): the start of the current wait plus its
        /// ``SyncJobRelaxation/after``.
        public var relaxesAt: Duration
        /// Whether it is in effect: the job waits on its weaker requirements.
        public var isApplied: Bool
        /// How long until it takes effect, as of the moment the status was read; zero once applied or due.
        public var remaining: Duration

        /// Creates a status.
        ///
        /// - Parameters:
        ///   - relaxation: the relaxation.
        ///   - relaxesAt: when it takes effect.
        ///   - isApplied: whether it is in effect.
        ///   - remaining: how long until it takes effect.
        public init(relaxation: SyncJobRelaxation, relaxesAt: Duration, isApplied: Bool, remaining: Duration) {
            self.relaxation = relaxation
            self.relaxesAt = relaxesAt
            self.isApplied = isApplied
            self.remaining = remaining
        }

        /// `unmetered dropped in 2d 3h`, or `unmetered dropped` once applied.
        public var description: String {
            isApplied ? relaxation.change : "\(relaxation.change) in \(SyncJobRelaxation.format(remaining))"
        }
    }
}

extension [SyncJobRelaxation.Status] {
    /// The statuses as a suffix of a job's line: ` (relaxes: unmetered dropped in 2d 3h)`, listing the
    /// pending ones, then the applied ones as ` (relaxed: unmetered dropped)`; empty without relaxations.
    package var summarySuffix: String {
        var suffix = ""
        let pending = filter { !$0.isApplied }
        let applied = filter(\.isApplied)
        if !pending.isEmpty { suffix += " (relaxes: \(pending.map(\.description).joined(separator: "; ")))" }
        if !applied.isEmpty { suffix += " (relaxed: \(applied.map(\.description).joined(separator: "; ")))" }
        return suffix
    }
}
