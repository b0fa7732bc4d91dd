/// A hash table from nonzero 64-bit keys to values, for the scheduler's per-job indexes.
///
/// `Dictionary` hashes every key with SipHash, which keeps it safe against keys chosen to collide and
/// makes each lookup cost tens of nanoseconds; the scheduler's hottest tables are keyed by its own job
/// keys (1, 2, 3, …), which no caller chooses. This table hashes a key with one multiplication by a
/// random odd number drawn per table (Fibonacci hashing: the product's top bits pick the slot), probes
/// linearly, and deletes by shifting the following entries back, so it keeps no tombstones. At most
/// three quarters of its slots are used; it grows by doubling and never shrinks below what its largest
/// count needed, as `Dictionary` does not either.
///
/// Iteration order is unspecified, as a dictionary's is. Key 0 is reserved (it marks an empty slot).
package struct KeyTable<Value> {
    private var storedKeys: [UInt64]
    private var slots: [Value?]
    private var shift: UInt64
    private let multiplier: UInt64
    /// The number of entries.
    package private(set) var count = 0

    /// Creates an empty table.
    package init() {
        storedKeys = Array(repeating: 0, count: 8)
        slots = Array(repeating: nil, count: 8)
        shift = 64 - 3
        var random = SystemRandomNumberGenerator()
        multiplier = random.next() | 1
    }

    /// Whether the table is empty.
    package var isEmpty: Bool { count == 0 }

    /// The value of `key`, or `nil`; setting `nil` removes the entry.
    package subscript(key: UInt64) -> Value? {
        get {
            guard let index = find(key) else { return nil }
            return slots[index]
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
    package func contains(_ key: UInt64) -> Bool { find(key) != nil }

    /// Removes the entry of `key` and returns its value, if there was one.
    @discardableResult
    package mutating func removeValue(forKey key: UInt64) -> Value? {
        guard var hole = find(key) else { return nil }
        let removed = slots[hole]
        let mask = storedKeys.count - 1
        storedKeys[hole] = 0
        slots[hole] = nil
        count -= 1
        // Backward shift: move each following entry of the run into the hole when its home slot is not
        // between the hole and itself (cyclically), so every entry stays reachable from its home slot.
        var next = (hole + 1) & mask
        while storedKeys[next] != 0 {
            let home = self.home(storedKeys[next])
            if (next - home) & mask >= (next - hole) & mask {
                storedKeys[hole] = storedKeys[next]
                slots[hole] = slots[next]
                storedKeys[next] = 0
                slots[next] = nil
                hole = next
            }
            next = (next + 1) & mask
        }
        return removed
    }

    /// The keys, in no particular order.
    package var keys: some Sequence<UInt64> { storedKeys.lazy.filter { $0 != 0 } }

    /// The values, in no particular order.
    package var values: some Sequence<Value> { slots.lazy.compactMap { $0 } }

    @inline(__always)
    private func home(_ key: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* multiplier) >> shift)
    }

    @inline(__always)
    private func find(_ key: UInt64) -> Int? {
        precondition(key != 0, "key 0 is reserved")
        let mask = storedKeys.count - 1
        var index = home(key)
        while true {
            let found = storedKeys[index]
            if found == key { return index }
            if found == 0 { return nil }
            index = (index + 1) & mask
        }
    }

    private mutating func insert(_ value: Value, for key: UInt64) {
        precondition(key != 0, "key 0 is reserved")
        if (count + 1) * 4 > storedKeys.count * 3 { grow() }
        let mask = storedKeys.count - 1
        var index = home(key)
        while true {
            let found = storedKeys[index]
            if found == key {
                slots[index] = value
                return
            }
            if found == 0 {
                storedKeys[index] = key
                slots[index] = value
                count += 1
                return
            }
            index = (index + 1) & mask
        }
    }

    /// Doubles the slots and moves every entry to its new slot (values are moved, not copied).
    private mutating func grow() {
        var oldKeys: [UInt64] = []
        var oldSlots: [Value?] = []
        swap(&oldKeys, &storedKeys)
        swap(&oldSlots, &slots)
        storedKeys = Array(repeating: 0, count: oldKeys.count * 2)
        slots = Array(repeating: nil, count: oldKeys.count * 2)
        shift -= 1
        let mask = storedKeys.count - 1
        for old in oldKeys.indices where oldKeys[old] != 0 {
            var index = home(oldKeys[old])
            while storedKeys[index] != 0 { index = (index + 1) & mask }
            storedKeys[index] = oldKeys[old]
            slots[index] = oldSlots[old].take()
        }
    }
}
