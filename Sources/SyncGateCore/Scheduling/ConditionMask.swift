/// A set of interned app-defined conditions, as bits, so a job's conditions compare in O(words).
struct ConditionMask: Hashable, Sendable {
    private(set) var words: [UInt64] = []

    /// The empty mask.
    init() {}

    /// Whether no bit is set.
    var isEmpty: Bool { words.isEmpty }

    /// Sets bit `index`.
    mutating func insert(_ index: Int) {
        let word = index / 64
        if words.count <= word { words.append(contentsOf: repeatElement(0, count: word - words.count + 1)) }
        words[word] |= 1 << UInt64(index % 64)
    }

    /// Whether every bit of `self` is also set in `other`.
    func isSubset(of other: ConditionMask) -> Bool {
        for (index, word) in words.enumerated() {
            let theirs = index < other.words.count ? other.words[index] : 0
            if word & ~theirs != 0 { return false }
        }
        return true
    }
}

/// Maps condition names, and each distinct network allowlist, to bit indexes of one mask space; a name or
/// a list keeps its bit for the life of the scheduler.
///
/// An allowlist's bit is set in the held mask while the status allows it (``heldMask(in:)``), so a job's
/// allowlist is one more bit of its condition mask: buckets, dispatch and the requirements-lost check treat
/// it like a condition, and a status change decides each distinct list once, whatever the number of jobs.
struct ConditionInterner {
    private var bits: [SyncCondition: Int] = [:]
    private var networkBits: [SyncNetworkAllowlist: Int] = [:]
    private var nextBit = 0

    /// The mask of `conditions`, giving new names new bits.
    mutating func intern(_ conditions: Set<SyncCondition>) -> (mask: ConditionMask, added: [SyncCondition]) {
        var mask = ConditionMask()
        var added: [SyncCondition] = []
        for condition in conditions {
            if let bit = bits[condition] {
                mask.insert(bit)
            } else {
                let bit = nextBit
                nextBit += 1
                bits[condition] = bit
                mask.insert(bit)
                added.append(condition)
            }
        }
        return (mask, added)
    }

    /// The mask of the interned names among `conditions`; names never interned are left out.
    func mask(of conditions: Set<SyncCondition>) -> ConditionMask {
        var mask = ConditionMask()
        for condition in conditions {
            if let bit = bits[condition] { mask.insert(bit) }
        }
        return mask
    }

    /// The bit of an interned name.
    func bit(of condition: SyncCondition) -> Int? { bits[condition] }

    /// The bit of `allowlist`, giving a new list a new bit; `added` when it is new.
    mutating func intern(_ allowlist: SyncNetworkAllowlist) -> (bit: Int, added: Bool) {
        if let bit = networkBits[allowlist] { return (bit, false) }
        let bit = nextBit
        nextBit += 1
        networkBits[allowlist] = bit
        return (bit, true)
    }

    /// The mask a job with `conditions` and `allowlist` waits for: the bits of the interned names among
    /// `conditions`, and the allowlist's bit when it is interned.
    func mask(of conditions: Set<SyncCondition>, allowlist: SyncNetworkAllowlist?) -> ConditionMask {
        var mask = mask(of: conditions)
        if let allowlist, let bit = networkBits[allowlist] { mask.insert(bit) }
        return mask
    }

    /// What `status` holds: the bits of its conditions, and of every interned allowlist it allows (each
    /// list decided once: O(conditions held + distinct lists)).
    func heldMask(in status: SyncEnvironmentStatus) -> ConditionMask {
        var mask = mask(of: status.conditions)
        for (allowlist, bit) in networkBits where status.allows(allowlist) { mask.insert(bit) }
        return mask
    }
}
