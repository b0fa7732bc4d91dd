/// A small deterministic random number generator (SplitMix64), so a run driven by a seed can be replayed.
///
/// The same seed always gives the same sequence, on every platform and in every release: stress tests
/// print their seed, and a failing seed replays the failing run. The sequence is pinned by a test, so
/// seeds recorded in bug reports stay valid. Not suitable for anything that needs unpredictability.
///
/// ```swift
/// var random = SeededRandom(seed: 42)
/// let jobs = random.next(in: 0...20)
/// let cancelsFirst = random.chance(0.25)
/// let element = [1, 2, 3].randomElement(using: &random)
/// ```
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator whose sequence is determined by `seed` alone.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<1`, from the next 53 random bits.
    public mutating func unit() -> Double {
        Double(next() >> 11) / Double(1 << 53)
    }

    /// `true` with the given probability (one draw of ``unit()``).
    public mutating func chance(_ probability: Double) -> Bool {
        unit() < probability
    }

    /// A random element of a non-empty array (one draw, reduced modulo the count).
    public mutating func pick<T>(_ elements: [T]) -> T {
        elements[Int(next() % UInt64(elements.count))]
    }

    /// A number in `0..<bound` (one draw, reduced modulo `bound`); `bound` must be positive.
    public mutating func next(below bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }

    /// A number in `range` (one draw, reduced modulo the range's size).
    public mutating func next(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }
}
