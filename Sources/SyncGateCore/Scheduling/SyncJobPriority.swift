/// How urgent a job is: higher priorities start first; within a priority, jobs start in submission order.
public enum SyncJobPriority: Sendable, Hashable, Comparable, CaseIterable, CustomStringConvertible {
    /// Start after every runnable normal and high job.
    case low
    /// The default.
    case normal
    /// Start before every runnable normal and low job.
    case high

    /// The case name.
    public var description: String {
        switch self {
        case .low: "low"
        case .normal: "normal"
        case .high: "high"
        }
    }
}
