/// Reads and writes the durations of the command line: `500ms`, `30s`, `5m`, `1h`, `3d`, `1.5s`.
///
/// A duration is a non-negative decimal number (at most nine digits after the point) followed directly
/// by a unit: `ms`, `s`, `m`, `h` or `d` (24 hours). The longest accepted duration is 8760h (a year).
///
/// Every duration option of every subcommand follows this one rule, and `0s` is accepted by each of
/// them with the meaning "no time at all": a `--timeout` of `0s` answers from the current state
/// without waiting, a `--backoff` of `0s` retries at once, a `--grace` of `0s` sends SIGKILL right
/// after SIGTERM. A period is the exception: `submit --every` is at least
/// ``DaemonLimits/minimumPeriod`` and `--flex` positive (checked after parsing).
///
/// The number is range-checked before any arithmetic, so no text (`2562048h`, twenty digits of
/// minutes) can overflow: the parser never traps, which `Fuzz/Duration` checks.
package enum DurationParser {
    /// The longest duration accepted, in hours.
    package static let maximumHours: Int64 = 8_760

    private static let units: [(suffix: String, nanoseconds: Int64)] = [
        ("ms", 1_000_000),
        ("s", 1_000_000_000),
        ("m", 60_000_000_000),
        ("h", 3_600_000_000_000),
        ("d", 86_400_000_000_000),
    ]

    /// Parses `text` as a duration given to `option`.
    ///
    /// - Throws: ``UsageError`` naming the option and the value when the text is not a duration or is
    ///   negative.
    package static func parse(_ text: String, option: String) throws(UsageError) -> Duration {
        if text.hasPrefix("-"), let digit = text.dropFirst().first, digit.isASCII, digit.isNumber {
            throw UsageError("invalid duration '\(text)' for \(option): must not be negative")
        }
        let syntax = UsageError(
            "invalid duration '\(text)' for \(option): expected a number and a unit (ms, s, m, h or d), "
                + "such as 500ms, 30s, 5m, 1h or 3d"
        )
        let number = String(text.prefix { $0.isASCII && ($0.isNumber || $0 == ".") })
        let unit = String(text.dropFirst(number.count))
        guard !number.isEmpty, !unit.isEmpty else { throw syntax }
        guard let scale = units.first(where: { $0.suffix == unit })?.nanoseconds else {
            if unit.allSatisfy({ $0.isLetter }) {
                throw UsageError(
                    "invalid duration '\(text)' for \(option): unknown unit '\(unit)' (use ms, s, m, h or d)")
            }
            throw syntax
        }
        let pieces = number.split(separator: ".", omittingEmptySubsequences: false)
        guard pieces.count <= 2, !pieces[0].isEmpty, pieces.count == 1 || !pieces[1].isEmpty else { throw syntax }
        let fraction = pieces.count == 2 ? pieces[1] : ""
        guard fraction.count <= 9 else {
            throw UsageError("invalid duration '\(text)' for \(option): at most 9 digits after the point")
        }
        let tooLong = UsageError("invalid duration '\(text)' for \(option): longer than \(maximumHours)h")
        // Range-checked before any arithmetic: the whole part alone must fit the longest duration in this
        // unit, so the products and the sum below stay far below Int64.max.
        let limit = maximumHours * 3_600_000_000_000
        guard pieces[0].count <= 18, let whole = Int64(pieces[0]), whole <= limit / scale else { throw tooLong }
        var nanoseconds = whole * scale
        if !fraction.isEmpty, let digits = Int64(fraction) {
            // The fraction in billionths of the unit (below a billion), times the unit's nanoseconds, over a
            // billion: less than one unit.
            var billionths = digits
            for _ in fraction.count..<9 { billionths *= 10 }
            let product = billionths.multipliedFullWidth(by: scale)
            nanoseconds += Int64(1_000_000_000).dividingFullWidth(product).quotient
        }
        guard nanoseconds <= limit else { throw tooLong }
        return .nanoseconds(nanoseconds)
    }

    /// Writes a duration the way it is read: `300ms`, `5s`, `1.5s`, `2m`, `1h`, `0s`.
    ///
    /// Whole hours, minutes, seconds and milliseconds use their unit (days are written in hours, so the
    /// text reads the same to every version of the parser); anything else is written in seconds (or, below
    /// a second, milliseconds) with up to three decimals.
    package static func format(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let (scaled, scaleOverflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (nanoseconds, sumOverflow) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
        // Beyond Int64 nanoseconds (about 292 years) whole seconds are exact enough.
        if scaleOverflow || sumOverflow || nanoseconds == .min { return "\(seconds)s" }
        if nanoseconds == 0 { return "0s" }
        if nanoseconds < 0 { return "-" + format(.nanoseconds(-nanoseconds)) }
        for (suffix, scale) in units.reversed()
        where suffix != "d" && scale >= 1_000_000_000 && nanoseconds % scale == 0 {
            return "\(nanoseconds / scale)\(suffix)"
        }
        if nanoseconds < 1_000_000_000 {
            if nanoseconds % 1_000_000 == 0 { return "\(nanoseconds / 1_000_000)ms" }
            return decimal(nanoseconds, scale: 1_000_000) + "ms"
        }
        return decimal(nanoseconds, scale: 1_000_000_000) + "s"
    }

    /// `value / scale` with up to three decimals, trailing zeros removed.
    private static func decimal(_ value: Int64, scale: Int64) -> String {
        let step = scale / 1_000
        let thousandths = (value + step / 2) / step
        var fraction = String(thousandths % 1_000)
        fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return fraction.isEmpty ? "\(thousandths / 1_000)" : "\(thousandths / 1_000).\(fraction)"
    }
}
