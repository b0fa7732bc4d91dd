/// A set of 64-bit keys handed out in increasing order: a ``KeyTable`` without values, so a
/// membership test is one load from the slot of the key's low bits, with no hashing.
///
/// Iteration order is unspecified.
package struct KeySet: Sequence {
    private var table = KeyTable<Void>()

    /// Creates an empty set.
    package init() {}

    /// The number of keys.
    package var count: Int { table.count }

    /// Whether the set is empty.
    package var isEmpty: Bool { table.isEmpty }

    /// Whether the set holds `key`.
    package func contains(_ key: UInt64) -> Bool { table.contains(key) }

    /// Adds `key`.
    package mutating func insert(_ key: UInt64) { table[key] = () }

    /// Removes `key`; returns it if it was in the set.
    @discardableResult
    package mutating func remove(_ key: UInt64) -> UInt64? {
        table.removeValue(forKey: key) == nil ? nil : key
    }

    /// The keys, in no particular order.
    package func makeIterator() -> IndexingIterator<[UInt64]> { table.keys.makeIterator() }
}

extension KeySet: Sendable {}
