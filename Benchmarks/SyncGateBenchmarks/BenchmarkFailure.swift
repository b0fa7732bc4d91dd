/// A benchmark that could not do or verify its work: the harness prints it and exits non-zero.
struct BenchmarkFailure: Error, CustomStringConvertible {
    /// The scenario that failed.
    var scenario: String
    /// What went wrong, with the numbers that show it.
    var message: String

    var description: String { "\(scenario): \(message)" }
}
