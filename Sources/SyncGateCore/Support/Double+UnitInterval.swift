extension Double {
    /// The value within `0...1`: below 0 it is 0, above 1 it is 1; NaN stays NaN (callers decide what
    /// it means).
    package var clampedToUnitInterval: Double {
        Swift.min(Swift.max(self, 0), 1)
    }
}
