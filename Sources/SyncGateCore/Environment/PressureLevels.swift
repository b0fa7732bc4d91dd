/// The pressure of each resource last read: the share of time, in percent over the kernel's 10-second
/// average (`some avg10`), in which some task stalled on it; `nil` for a resource not read.
public struct PressureLevels: Sendable, Hashable, CustomStringConvertible {
    /// The CPU's `some avg10`, in percent.
    public var cpu: Double?
    /// The I/O `some avg10`, in percent.
    public var io: Double?
    /// The memory `some avg10`, in percent.
    public var memory: Double?

    /// Creates levels.
    public init(cpu: Double? = nil, io: Double? = nil, memory: Double? = nil) {
        self.cpu = cpu
        self.io = io
        self.memory = memory
    }

    /// The level of one resource.
    public subscript(resource: PressureResource) -> Double? {
        get {
            switch resource {
            case .cpu: cpu
            case .io: io
            case .memory: memory
            }
        }
        set {
            switch resource {
            case .cpu: cpu = newValue
            case .io: io = newValue
            case .memory: memory = newValue
            }
        }
    }

    /// The resources whose level is known and at or above its threshold.
    public func resourcesAtOrAbove(_ thresholds: PressureThresholds) -> [PressureResource] {
        PressureResource.allCases.filter { resource in self[resource].map { $0 >= thresholds[resource] } ?? false }
    }

    /// `cpu 3.10 %, io 0.00 %, memory 0.00 %`; a resource not read is left out.
    public var description: String {
        let known = PressureResource.allCases.compactMap { resource in
            self[resource].map { "\(resource) \(Self.format($0)) %" }
        }
        return known.isEmpty ? "not read" : known.joined(separator: ", ")
    }

    /// A percentage with two decimals, as the kernel writes it: `3.10`; a value that is not finite, or
    /// beyond ±10¹², as Swift writes it (`nan`).
    public static func format(_ percent: Double) -> String {
        guard percent.isFinite, abs(percent) < 1e12 else { return "\(percent)" }
        guard percent >= 0 else { return "-" + format(-percent) }
        let hundredths = Int((percent * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
