/// A first-in, first-out queue over an array: taking from the front moves a head index, and the taken
/// front is cut off once it is at least 4 096 elements and half the array, so taking stays O(1)
/// amortized and memory stays bounded by twice what is queued.
struct FIFOQueue<Element> {
    private var elements: [Element] = []
    private var head = 0

    /// How many elements are queued.
    var count: Int { elements.count - head }

    /// The oldest element, or `nil` when the queue is empty.
    var first: Element? { head < elements.count ? elements[head] : nil }

    /// Adds `element` as the newest.
    mutating func append(_ element: Element) {
        elements.append(element)
    }

    /// Removes and returns the oldest element, or `nil` when the queue is empty.
    mutating func popFirst() -> Element? {
        guard head < elements.count else { return nil }
        let taken = elements[head]
        head += 1
        if head >= 4096 && head * 2 >= elements.count {
            elements.removeFirst(head)
            head = 0
        }
        return taken
    }
}
