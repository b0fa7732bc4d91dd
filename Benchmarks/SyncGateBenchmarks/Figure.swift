/// One scalar result (a rate, a time, a size), with its baseline and goal when it has them.
struct Figure: Codable, Sendable {
    /// What the number is.
    var name: String
    /// The number.
    var value: Double
    /// Its unit, such as `"jobs/s"`, `"ms"` or `"bytes"`.
    var unit: String
    /// What it is compared with, when anything.
    var baselineName: String?
    /// The baseline's number, in the same unit.
    var baseline: Double?
    /// `value ÷ baseline`.
    var ratio: Double?
    /// The goal for this figure (docs/PERFORMANCE.md), in words.
    var goal: String?
    /// Whether the goal is met in this run.
    var goalMet: Bool?

    /// Creates a figure; the ratio is computed from the baseline.
    init(
        _ name: String, _ value: Double, unit: String, baselineName: String? = nil, baseline: Double? = nil,
        goal: String? = nil, goalMet: Bool? = nil
    ) {
        self.name = name
        self.value = value
        self.unit = unit
        self.baselineName = baselineName
        self.baseline = baseline
        self.ratio = baseline.map { $0 > 0 ? value / $0 : 0 }
        self.goal = goal
        self.goalMet = goalMet
    }
}
