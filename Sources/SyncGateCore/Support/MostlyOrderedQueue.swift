/// A min-queue for elements that mostly arrive in increasing order: those go to the end of an array
/// (O(1), read and removed in order, so a long queue is walked sequentially in memory), the others to
/// a binary heap; the smallest element is the smaller of the two heads.
///
/// The scheduler's waiting jobs are ordered by key, and a new job's key is larger than every earlier
/// one, so almost every insertion is an append; only a job that waits again (requeued, or after a
/// backoff) goes to the heap. A binary heap alone cost O(log n) scattered reads for every job started
/// from a long queue.
package struct MostlyOrderedQueue<Element: Comparable> {
    /// The in-order part, live from `head` on.
    private var ordered: [Element] = []
    private var head = 0
    private var outOfOrder = BinaryHeap<Element>()

    /// Creates an empty queue.
    package init() {}

    /// The number of elements.
    package var count: Int { ordered.count - head + outOfOrder.count }

    /// Whether the queue is empty.
    package var isEmpty: Bool { count == 0 }

    /// The smallest element, if any.
    package var top: Element? {
        guard head < ordered.count else { return outOfOrder.top }
        let first = ordered[head]
        if let other = outOfOrder.top, other < first { return other }
        return first
    }

    /// Adds an element: O(1) when it is larger than every element added in order so far.
    package mutating func insert(_ element: Element) {
        if head == ordered.count || ordered[ordered.count - 1] < element {
            ordered.append(element)
        } else {
            outOfOrder.insert(element)
        }
    }

    /// Removes and returns the smallest element.
    @discardableResult
    package mutating func popTop() -> Element? {
        guard head < ordered.count else { return outOfOrder.popTop() }
        if let other = outOfOrder.top, other < ordered[head] { return outOfOrder.popTop() }
        let first = ordered[head]
        head += 1
        if head == ordered.count {
            ordered.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 1024 && head * 2 >= ordered.count {
            ordered.removeFirst(head)
            head = 0
        }
        return first
    }

    /// Room for elements without reallocating: the in-order part's capacity.
    package var capacity: Int { ordered.capacity }

    /// Removes every element, keeping the storage for the next ones.
    package mutating func removeAll() {
        ordered.removeAll(keepingCapacity: true)
        head = 0
        outOfOrder.removeAll()
    }

    /// Keeps only the elements for which `isIncluded` is true, in O(n).
    package mutating func filter(_ isIncluded: (Element) -> Bool) {
        ordered = ordered[head...].filter(isIncluded)
        head = 0
        outOfOrder.filter(isIncluded)
    }
}
