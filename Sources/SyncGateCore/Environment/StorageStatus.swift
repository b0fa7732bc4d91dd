/// Free space on the volume a ``StorageObserver`` watches, and whether it counts as low.
///
/// The rule: storage is low when the space available to an unprivileged process is below the threshold,
/// by default the smaller of 5 % of the volume and 500 MiB (Android's low-storage rule, which WorkManager's
/// storage constraint follows through the system's low-storage broadcast). An unknown amount is not low.
public struct StorageStatus: Sendable, Hashable, CustomStringConvertible {
    /// The path whose volume is watched; `nil` when nothing is watched.
    public var path: String?
    /// Bytes available to an unprivileged process (`f_bavail × f_frsize`); `nil` when unknown.
    public var availableBytes: UInt64?
    /// The volume's size in bytes (`f_blocks × f_frsize`); `nil` when unknown.
    public var capacityBytes: UInt64?
    /// The free space below which storage is low.
    public var thresholdBytes: UInt64

    /// The default threshold's cap: 500 MiB.
    public static let defaultThresholdCap: UInt64 = 500 * 1024 * 1024

    /// The default threshold for a volume of `capacityBytes`: the smaller of 5 % of it and 500 MiB.
    public static func defaultThreshold(capacityBytes: UInt64) -> UInt64 {
        min(capacityBytes / 20, defaultThresholdCap)
    }

    /// Creates a status; without a threshold the default one for `capacityBytes` applies.
    public init(
        path: String? = nil, availableBytes: UInt64? = nil, capacityBytes: UInt64? = nil, thresholdBytes: UInt64? = nil
    ) {
        self.path = path
        self.availableBytes = availableBytes
        self.capacityBytes = capacityBytes
        self.thresholdBytes = thresholdBytes ?? capacityBytes.map(Self.defaultThreshold(capacityBytes:)) ?? 0
    }

    /// Whether storage is low: the available space is known and below ``thresholdBytes``.
    public var isLow: Bool {
        guard let availableBytes else { return false }
        return availableBytes < thresholdBytes
    }

    /// Nothing known: not low.
    public static let unknown = StorageStatus()

    /// A readable summary, such as `1.2 GiB free of 20.0 GiB` or `40.0 MiB free of 1.0 GiB (low)`.
    public var description: String {
        guard let availableBytes else { return "free space unknown" }
        let capacity = capacityBytes.map { " of \(Self.format($0))" } ?? ""
        return "\(Self.format(availableBytes)) free\(capacity)" + (isLow ? " (low)" : "")
    }

    /// Bytes in binary units with one decimal: `512 B`, `3.5 KiB`, `1.2 GiB`.
    public static func format(_ bytes: UInt64) -> String {
        let units = ["KiB", "MiB", "GiB", "TiB", "PiB"]
        guard bytes >= 1024 else { return "\(bytes) B" }
        var value = Double(bytes) / 1024
        var unit = 0
        while value >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) \(units[unit])"
    }
}
