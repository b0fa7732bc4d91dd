/// A binary min-heap: the smallest element is at the top.
package struct BinaryHeap<Element: Comparable> {
    private var storage: [Element] = []

    /// Creates an empty heap.
    package init() {}

    /// The number of elements.
    package var count: Int { storage.count }

    /// Whether the heap is empty.
    package var isEmpty: Bool { storage.isEmpty }

    /// The smallest element, if any.
    package var top: Element? { storage.first }

    /// Every element, in no particular order.
    package var unordered: [Element] { storage }

    /// Removes every element, keeping the storage for the next ones.
    package mutating func removeAll() {
        storage.removeAll(keepingCapacity: true)
    }

    /// Adds an element in O(log n).
    package mutating func insert(_ element: Element) {
        storage.append(element)
        var child = storage.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard storage[child] < storage[parent] else { break }
            storage.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the smallest element in O(log n).
    @discardableResult
    package mutating func popTop() -> Element? {
        guard !storage.isEmpty else { return nil }
        storage.swapAt(0, storage.count - 1)
        let top = storage.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < storage.count && storage[left] < storage[smallest] { smallest = left }
            if right < storage.count && storage[right] < storage[smallest] { smallest = right }
            guard smallest != parent else { break }
            storage.swapAt(parent, smallest)
            parent = smallest
        }
        return top
    }

    /// Keeps only the elements for which `isIncluded` is true, in O(n).
    package mutating func filter(_ isIncluded: (Element) -> Bool) {
        let kept = storage.filter(isIncluded)
        storage = []
        storage.reserveCapacity(kept.count)
        for element in kept { insert(element) }
    }
}
