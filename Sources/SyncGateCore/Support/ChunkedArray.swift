/// An array that grows by whole chunks of fixed capacity, so an element once stored never moves.
///
/// A Swift array that outgrows its buffer moves every element into a buffer twice as large: for large
/// elements kept by the hundred thousand (a store's pending jobs), each growth copies megabytes into
/// memory the process touches for the first time, and the thread that appended pays for it. Here the
/// elements live in chunks of `2^chunkShift` places, each allocated at full capacity when the previous
/// one is full; growing moves only the chunks' references. Indices run from 0 to `count - 1`, and
/// reading or writing one costs a shift, a mask and two bounds checks.
package struct ChunkedArray<Element>: RandomAccessCollection, MutableCollection {
    /// The chunks, each created with a capacity of `1 << chunkShift`; all but the last are full.
    private var chunks: [ContiguousArray<Element>] = []
    /// The base-2 logarithm of a chunk's capacity.
    private let chunkShift: Int
    /// How many elements are held.
    package private(set) var count = 0

    /// An empty array whose chunks hold `1 << chunkShift` elements each (512 by default).
    package init(chunkShift: Int = 9) {
        precondition((0...20).contains(chunkShift), "ChunkedArray: chunkShift \(chunkShift) is outside 0...20")
        self.chunkShift = chunkShift
    }

    package var startIndex: Int { 0 }
    package var endIndex: Int { count }

    /// The element at `position`.
    package subscript(position: Int) -> Element {
        get {
            precondition(position >= 0 && position < count, "ChunkedArray index \(position) out of 0..<\(count)")
            return chunks[position &>> chunkShift][position & mask]
        }
        _modify {
            precondition(position >= 0 && position < count, "ChunkedArray index \(position) out of 0..<\(count)")
            yield &chunks[position &>> chunkShift][position & mask]
        }
    }

    /// Adds `element` at the end, at index `count`; no element already held moves.
    package mutating func append(_ element: Element) {
        if count & mask == 0 {
            var chunk = ContiguousArray<Element>()
            chunk.reserveCapacity(1 << chunkShift)
            chunks.append(chunk)
        }
        chunks[chunks.count - 1].append(element)
        count += 1
    }

    /// Removes every element and releases the chunks.
    package mutating func removeAll() {
        chunks = []
        count = 0
    }

    private var mask: Int { (1 << chunkShift) - 1 }
}

extension ChunkedArray: Sendable where Element: Sendable {}
