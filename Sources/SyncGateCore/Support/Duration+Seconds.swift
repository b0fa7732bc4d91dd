extension Duration {
    /// The duration in seconds, for any duration.
    package var inSeconds: Double {
        // Beyond what the components hold (an Int64 of seconds), the ratio; within, the exact sum.
        guard self < .seconds(Int64.max), self > .seconds(-Int64.max) else { return self / .seconds(1) }
        return Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// The duration of `seconds`, never trapping whatever the value: to the nanosecond (rounded by
    /// `rule`) while an `Int64` of nanoseconds holds it (about ±285 years), in seconds beyond, and at most
    /// ±`.seconds(Int64.max)`; not-a-number is zero.
    package static func saturating(
        seconds: Double, rounding rule: FloatingPointRoundingRule = .towardZero
    ) -> Duration {
        if seconds.isNaN { return .zero }
        if abs(seconds) < 9e9 { return .nanoseconds(Int64((seconds * 1e9).rounded(rule))) }
        if abs(seconds) < 9e18 { return .seconds(seconds) }
        return .seconds(seconds > 0 ? Int64.max : -Int64.max)
    }
}
