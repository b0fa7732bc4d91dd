/// How far a running job has come, as it last reported through ``SyncJobContext/reportProgress(_:message:)``.
public struct SyncJobProgress: Sendable, Hashable, CustomStringConvertible {
    /// The fraction done, from 0 to 1.
    ///
    /// The initializer clamps it; a value set directly outside `0...1` (or NaN) reads in ``description``
    /// as the nearest end (NaN as 0).
    public var fraction: Double
    /// A short message for display, such as `"12 of 40 photos"`.
    public var message: String?

    /// Creates a progress value; `fraction` is clamped to `0...1`, and NaN counts as 0.
    ///
    /// - Parameters:
    ///   - fraction: the fraction done.
    ///   - message: a short message for display.
    public init(fraction: Double, message: String? = nil) {
        self.fraction = Self.clamped(fraction)
        self.message = message
    }

    /// A summary such as `42% (12 of 40 photos)`.
    public var description: String {
        let percent = "\(Int((Self.clamped(fraction) * 100).rounded(.down)))%"
        guard let message else { return percent }
        return "\(percent) (\(message))"
    }

    /// `fraction` within `0...1`; NaN is 0.
    private static func clamped(_ fraction: Double) -> Double {
        fraction.isNaN ? 0 : fraction.clampedToUnitInterval
    }
}
