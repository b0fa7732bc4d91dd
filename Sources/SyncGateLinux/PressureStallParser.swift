import SyncGateCore

/// The pure parts of the kernel's pressure stall information (PSI): reading a `/proc/pressure/*` file
/// and writing a trigger.
///
/// A PSI file holds a `some` line and, for I/O, memory and (since Linux 5.13) the CPU, a `full` line:
/// `some avg10=1.53 avg60=0.87 avg300=0.35 total=13440912`. The averages are percentages of wall time
/// in which some (or all) non-idle tasks stalled on the resource.
package enum PressureStallParser {
    /// The window of every trigger, in microseconds: 2 s, since the kernel lets unprivileged processes
    /// create triggers only with a window that is a multiple of 2 s (privileged ones from 500 ms to 10 s).
    package static let triggerWindowMicroseconds = 2_000_000

    /// The `avg10` of the `some` line of a PSI file's text; `nil` when there is no such line or its value
    /// is not a number between 0 and 100.
    package static func someAverage10(_ text: String) -> Double? {
        guard let field = someField("avg10", in: text), let value = Double(field), value >= 0, value <= 100 else {
            return nil
        }
        return value
    }

    /// The `total` of the `some` line of a PSI file's text: microseconds some task stalled since boot;
    /// `nil` when there is no such line or its value is not a whole number.
    package static func someTotal(_ text: String) -> UInt64? {
        someField("total", in: text).flatMap { UInt64($0) }
    }

    /// The value of the `name=` field of the first `some` line of `text` that has one; `nil` when none
    /// does.
    private static func someField(_ name: String, in text: String) -> Substring? {
        let prefix = name + "="
        for line in text.split(whereSeparator: { $0 == "\n" }) {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.first == "some", let field = fields.dropFirst().first(where: { $0.hasPrefix(prefix) }) else {
                continue
            }
            return field.dropFirst(prefix.count)
        }
        return nil
    }

    /// The trigger for a threshold of `percent` (above 0, at most 100): `some <stall> <window>`, with a
    /// stall of that share of ``triggerWindowMicroseconds`` (at least 1 µs). The kernel then signals
    /// `POLLPRI` once some task has stalled that long within a window.
    package static func trigger(percent: Double) -> String {
        let window = triggerWindowMicroseconds
        let stall = min(window, max(1, Int((Double(window) * percent / 100).rounded())))
        return "some \(stall) \(window)"
    }
}
