extension Duration {
    /// The duration in seconds.
    var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// The duration of `seconds`, with nanosecond resolution, saturated to what `Int64` nanoseconds
    /// hold (about ±292 years); not-a-number is zero. It never traps, whatever a file holds.
    static func saturating(seconds: Double) -> Duration {
        let nanoseconds = seconds * 1e9
        if nanoseconds.isNaN { return .zero }
        if nanoseconds >= Double(Int64.max) { return .nanoseconds(Int64.max) }
        if nanoseconds <= Double(Int64.min) { return .nanoseconds(Int64.min) }
        return .nanoseconds(Int64(nanoseconds))
    }
}
