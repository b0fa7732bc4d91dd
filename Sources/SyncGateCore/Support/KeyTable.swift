/// A table from 64-bit keys to values, for indexes whose keys are handed out in increasing order
/// (1, 2, 3, …): the scheduler's job keys, the durable store's sequence numbers.
///
/// The table is a ring of slots indexed directly by the key's low bits, with an overflow dictionary for
/// the keys whose slot is taken by another live key. Keys handed out in order land in consecutive slots:
/// a run of submissions writes one stretch of memory, and a lookup is one load with no hashing, so the
/// tables of a scheduler holding 10⁶ jobs are not read at random addresses. A key goes to the overflow
/// only while an older key with the same low bits is still live (a long-lived job among many short ones).
///
/// The ring holds at most three quarters as many entries as it has slots, and grows by doubling (which
/// moves every entry, overflow included, to its slot in the larger ring) when it is fuller, or when the
/// overflow holds more than an eighth of its size. So the ring never has more than eight slots per entry,
/// whatever the keys. Like `Dictionary`, it never shrinks below what its largest count needed. The
/// overflow is a `Dictionary`, which hashes with SipHash, so keys chosen to collide cost no more than
/// they would in a dictionary.
///
/// Iteration order is unspecified, as a dictionary's is. Key 0 marks an empty slot of the ring, so its
/// entry, if any, is kept beside the ring.
package struct KeyTable<Value> {
    private var ringKeys: [UInt64]
    private var ringValues: [Value?]
    private var mask: UInt64
    private var overflow: [UInt64: Value] = [:]
    /// The value of key 0, which cannot be stored in the ring.
    private var zeroValue: Value?
    /// The number of entries.
    package private(set) var count = 0

    /// Creates an empty table.
    package init() {
        ringKeys = Array(repeating: 0, count: 8)
        ringValues = Array(repeating: nil, count: 8)
        mask = 7
    }

    /// How many entries are in the overflow (for the table's tests).
    package var overflowCount: Int { overflow.count }

    /// Whether the table is empty.
    package var isEmpty: Bool { count == 0 }

    /// The value of `key`, or `nil`; setting `nil` removes the entry.
    package subscript(key: UInt64) -> Value? {
        get {
            let slot = Int(truncatingIfNeeded: key & mask)
            if ringKeys[slot] == key && key != 0 { return ringValues[slot] }
            if key == 0 { return zeroValue }
            return overflow.isEmpty ? nil : overflow[key]
        }
        set {
            if let newValue {
                insert(newValue, for: key)
            } else {
                removeValue(forKey: key)
            }
        }
    }

    /// Whether `key` has an entry.
    package func contains(_ key: UInt64) -> Bool { self[key] != nil }

    /// Removes the entry of `key` and returns its value, if there was one.
    @discardableResult
    package mutating func removeValue(forKey key: UInt64) -> Value? {
        if key == 0 {
            guard let removed = zeroValue.take() else { return nil }
            count -= 1
            return removed
        }
        let slot = Int(truncatingIfNeeded: key & mask)
        if ringKeys[slot] == key {
            ringKeys[slot] = 0
            count -= 1
            return ringValues[slot].take()
        }
        guard !overflow.isEmpty, let removed = overflow.removeValue(forKey: key) else { return nil }
        count -= 1
        return removed
    }

    /// The keys, in no particular order.
    package var keys: [UInt64] {
        ringKeys.filter { $0 != 0 } + overflow.keys + (zeroValue == nil ? [] : [0])
    }

    /// The values, in no particular order.
    package var values: [Value] {
        ringValues.compactMap { $0 } + overflow.values + (zeroValue.map { [$0] } ?? [])
    }

    /// Makes the ring large enough for `capacity` entries in all, so that filling it to that count does
    /// not grow it again (unless the keys' low bits collide).
    package mutating func reserveCapacity(_ capacity: Int) {
        while capacity * 4 > ringKeys.count * 3 { grow() }
    }

    private mutating func insert(_ value: Value, for key: UInt64) {
        if key == 0 {
            if zeroValue == nil { count += 1 }
            zeroValue = value
            return
        }
        let slot = Int(truncatingIfNeeded: key & mask)
        let occupant = ringKeys[slot]
        if occupant == key {
            ringValues[slot] = value
            return
        }
        if !overflow.isEmpty, let index = overflow.index(forKey: key) {
            overflow.values[index] = value
            return
        }
        count += 1
        if occupant == 0 {
            ringKeys[slot] = key
            ringValues[slot] = value
        } else {
            overflow[key] = value
        }
        let slots = ringKeys.count
        if count * 4 > slots * 3 || overflow.count * 8 > slots { grow() }
    }

    /// Doubles the ring and moves every entry to its slot there (values are moved, not copied); entries
    /// whose slot is still taken stay in, or go to, the overflow.
    private mutating func grow() {
        var oldKeys: [UInt64] = []
        var oldValues: [Value?] = []
        var oldOverflow: [UInt64: Value] = [:]
        swap(&oldKeys, &ringKeys)
        swap(&oldValues, &ringValues)
        swap(&oldOverflow, &overflow)
        ringKeys = Array(repeating: 0, count: oldKeys.count * 2)
        ringValues = Array(repeating: nil, count: oldKeys.count * 2)
        mask = UInt64(ringKeys.count - 1)
        for old in oldKeys.indices where oldKeys[old] != 0 {
            place(oldKeys[old], oldValues[old].take()!)
        }
        for (key, value) in oldOverflow { place(key, value) }
    }

    /// Puts an entry known to be absent into its slot, or into the overflow when the slot is taken.
    private mutating func place(_ key: UInt64, _ value: Value) {
        let slot = Int(truncatingIfNeeded: key & mask)
        if ringKeys[slot] == 0 {
            ringKeys[slot] = key
            ringValues[slot] = value
        } else {
            overflow[key] = value
        }
    }
}

extension KeyTable: Sendable where Value: Sendable {}
