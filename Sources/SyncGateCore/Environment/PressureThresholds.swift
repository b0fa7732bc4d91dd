/// The pressure at or above which a resource counts as under pressure: for each resource, the share of
/// time (in percent, over the kernel's 10-second average `avg10`) in which some task stalled on it.
///
/// The defaults are 50 % for the CPU, 25 % for I/O and 10 % for memory: a machine whose runnable tasks
/// wait for a CPU half the time, for I/O a quarter of the time, or for memory a tenth of the time is
/// struggling, and heavy background work would make it worse. Each value must be above 0 and at most 100
/// (``validationError``).
public struct PressureThresholds: Sendable, Hashable, CustomStringConvertible {
    /// The CPU threshold, in percent of `some avg10`.
    public var cpu: Double
    /// The I/O threshold, in percent of `some avg10`.
    public var io: Double
    /// The memory threshold, in percent of `some avg10`.
    public var memory: Double

    /// Creates thresholds; each defaults to its value in ``default``.
    public init(cpu: Double = 50, io: Double = 25, memory: Double = 10) {
        self.cpu = cpu
        self.io = io
        self.memory = memory
    }

    /// CPU 50 %, I/O 25 %, memory 10 %.
    public static let `default` = PressureThresholds()

    /// The threshold of one resource.
    public subscript(resource: PressureResource) -> Double {
        switch resource {
        case .cpu: cpu
        case .io: io
        case .memory: memory
        }
    }

    /// Why these thresholds cannot be used, naming the field and the value; `nil` when each is above 0
    /// and at most 100.
    public var validationError: String? {
        for resource in PressureResource.allCases {
            let value = self[resource]
            if !(value > 0 && value <= 100) {
                return "pressure threshold \(resource) must be above 0 and at most 100 (percent), got \(value)"
            }
        }
        return nil
    }

    /// `cpu 50 %, io 25 %, memory 10 %`.
    public var description: String {
        PressureResource.allCases.map { "\($0) \(PressureLevels.format(self[$0])) %" }.joined(separator: ", ")
    }
}
