import Foundation

/// A small deterministic random generator (SplitMix64), so a failing stress seed can be replayed.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<1`.
    mutating func unit() -> Double {
        Double(next() >> 11) / Double(1 << 53)
    }

    /// `true` with the given probability.
    mutating func chance(_ probability: Double) -> Bool {
        unit() < probability
    }

    /// A random element of a non-empty array.
    mutating func pick<T>(_ elements: [T]) -> T {
        elements[Int(next() % UInt64(elements.count))]
    }
}

/// The seeds every stress run uses, plus one fresh seed per run (printed, so it can be replayed with
/// `SYNCGATE_STRESS_SEED`).
enum StressSeeds {
    static let fixed: [UInt64] = [1, 2, 3, 42, 1_234, 99_991, 0xDEAD_BEEF, 7_777_777]

    static var all: [UInt64] {
        let fresh = UInt64.random(in: 1...UInt64.max)
        if let replay = replaySeed { return [replay] }
        return fixed + [fresh]
    }

    static var replaySeed: UInt64? {
        guard let text = ProcessInfo.processInfo.environment["SYNCGATE_STRESS_SEED"] else { return nil }
        return UInt64(text)
    }
}
