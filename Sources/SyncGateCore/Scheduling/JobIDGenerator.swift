import Synchronization

/// The source of default job identifiers: a prefix drawn at random once per launch, then a counter.
///
/// A default identifier is the launch's prefix (nine base-36 characters, about 46.5 random bits), `#`,
/// and a base-36 counter that starts at 1 in every launch: `k3f9x2ab0#1z4`. Within a launch the counter
/// makes every identifier distinct. Across launches, two identifiers can only be equal when the two
/// launches drew the same prefix, a chance of 1 in 36⁹ (about 10¹⁴) per pair of launches, so a job
/// restored from a durable store never collides with a new default identifier in practice, and the
/// identifier serves as an idempotency key among one installation's jobs.
///
/// Up to 36⁵ − 1 (60 466 175) jobs per launch, an identifier is at most 15 ASCII bytes, which a Swift
/// string stores inline, without an allocation; later ones are longer, and just as unique.
package final class JobIDGenerator: Sendable {
    /// The launch's prefix.
    package let prefix: String
    private let counter = Atomic<UInt64>(0)

    /// The number of distinct prefixes: 36⁹.
    package static let prefixSpace: UInt64 = 101_559_956_668_416

    /// The length of every prefix.
    package static let prefixLength = 9

    /// The prefix's bytes followed by `#`, for ``serial(of:)``.
    private let head: [UInt8]

    /// Creates a generator with the given prefix; for tests that need a known one.
    package init(prefix: String) {
        self.prefix = prefix
        self.head = Array(prefix.utf8) + [UInt8(ascii: "#")]
    }

    /// Creates a generator with a prefix drawn from `generator`.
    package convenience init(using generator: inout some RandomNumberGenerator) {
        self.init(prefix: Self.makePrefix(using: &generator))
    }

    /// Creates a generator with a prefix drawn from the system's random source, as a new launch does.
    package convenience init() {
        var system = SystemRandomNumberGenerator()
        self.init(using: &system)
    }

    /// Draws a prefix: nine base-36 characters, leading zeros included.
    package static func makePrefix(using generator: inout some RandomNumberGenerator) -> String {
        let digits = String(UInt64.random(in: 0..<prefixSpace, using: &generator), radix: 36)
        return String(repeating: "0", count: prefixLength - digits.count) + digits
    }

    /// Returns the next identifier of this launch.
    package func next() -> SyncJob.ID {
        prefix + "#" + String(counter.add(1, ordering: .relaxed).newValue, radix: 36)
    }

    /// The counter of `id` when `id` is spelled exactly as this generator spells its identifiers (the
    /// prefix, `#`, the counter in lowercase base 36 without leading zeros), whoever made it; else `nil`.
    ///
    /// Two different identifiers never give the same counter, so the counter can stand for the
    /// identifier in an index (the scheduler's, which then hashes an integer instead of a string).
    package func serial(of id: SyncJob.ID) -> UInt64? {
        if let parsed = id.utf8.withContiguousStorageIfAvailable({ serial(ofBytes: $0) }) { return parsed }
        return serial(ofBytes: Array(id.utf8))
    }

    private func serial(ofBytes bytes: some RandomAccessCollection<UInt8>) -> UInt64? {
        // At most 13 base-36 digits: 36¹³ is above UInt64.max, so the longest ones are checked for overflow.
        guard bytes.count > head.count, bytes.count <= head.count + 13, bytes.starts(with: head) else { return nil }
        let digits = bytes.dropFirst(head.count)
        guard digits.first != UInt8(ascii: "0") else { return nil }
        var value: UInt64 = 0
        for byte in digits {
            let digit: UInt64
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt64(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): digit = UInt64(byte - UInt8(ascii: "a")) + 10
            default: return nil
            }
            let (shifted, overflowShift) = value.multipliedReportingOverflow(by: 36)
            let (sum, overflowAdd) = shifted.addingReportingOverflow(digit)
            guard !overflowShift, !overflowAdd else { return nil }
            value = sum
        }
        return value
    }

    /// The generator of this process, created on first use.
    package static let process = JobIDGenerator()

    /// The generator ``SyncJob/makeID()`` uses: the process's, unless a test binds another one to stand
    /// for a later launch of the app.
    @TaskLocal package static var current = process
}
