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

/// Maps condition names to bit indexes; a name keeps its bit for the life of the scheduler.
struct ConditionInterner {
    private var bits: [SyncCondition: Int] = [:]

    /// The mask of `conditions`, giving new names new bits.
    mutating func intern(_ conditions: Set<SyncCondition>) -> (mask: ConditionMask, added: [SyncCondition]) {
        var mask = ConditionMask()
        var added: [SyncCondition] = []
        for condition in conditions {
            if let bit = bits[condition] {
                mask.insert(bit)
            } else {
                let bit = bits.count
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
}
