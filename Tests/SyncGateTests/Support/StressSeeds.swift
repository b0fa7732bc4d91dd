import Foundation

/// The seeds every stress run uses, plus one fresh seed per run (printed, so it can be replayed with
/// `SYNCGATE_STRESS_SEED`); each seeds a `SeededRandom` from SyncGateTesting.
enum StressSeeds {
    static let fixed: [UInt64] = [
        1, 2, 3, 42, 1_234, 99_991, 0xDEAD_BEEF, 7_777_777, 10_463_509_076_728_137_028,
        // A calendar job's catch-up whose relaxation was already due: its relax timer was armed in the past.
        1_695_943_614_107_747_708,
        // A calendar job requeued after its window closed, with a failed attempt: the window's close left
        // its bucket and ended the period, and its catch-up run took the stage still reading "waiting"
        // for being in a bucket, so it never started.
        887_289_228_462_752_259,
    ]

    static var all: [UInt64] {
        let fresh = UInt64.random(in: 1...UInt64.max)
        if let replay = replaySeed { return [replay] }
        return fixed + [fresh]
    }

    /// The fixed seeds and `count` fresh ones (each printed in its test's arguments, so a failure can be
    /// replayed); only the replay seed when one is set. `SYNCGATE_STRESS_FRESH` overrides the count (CI's
    /// thread-sanitizer run, many times slower, uses one).
    static func fixed(plusFresh count: Int) -> [UInt64] {
        if let replay = replaySeed { return [replay] }
        let environment = ProcessInfo.processInfo.environment["SYNCGATE_STRESS_FRESH"]
        let fresh = environment.flatMap { Int($0) }.map { max(0, $0) } ?? count
        return fixed + (0..<fresh).map { _ in UInt64.random(in: 1...UInt64.max) }
    }

    static var replaySeed: UInt64? {
        guard let text = ProcessInfo.processInfo.environment["SYNCGATE_STRESS_SEED"] else { return nil }
        return UInt64(text)
    }
}
