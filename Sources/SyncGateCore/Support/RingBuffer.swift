/// A first-in, first-out queue in a circular buffer, oldest element first.
///
/// Appending and removing the oldest element cost O(1) (amortized, for the growth of the buffer), and
/// a removed element is released at once: a queue kept at a bounded length drops one element for each
/// one it takes, never a burst of them, and never moves the others. Positions run from 0 (the oldest)
/// to `count - 1` (the newest).
struct RingBuffer<Element>: RandomAccessCollection {
    /// The elements at their physical places; `nil` outside the live range. Its count is zero or a
    /// power of two, so a physical place is a mask away from a logical one.
    private var slots: [Element?] = []
    /// The physical place of the oldest element.
    private var head = 0
    /// How many elements are held.
    private(set) var count = 0

    /// An empty queue.
    init() {}

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    /// The element at `position`, 0 being the oldest.
    subscript(position: Int) -> Element {
        precondition(position >= 0 && position < count, "RingBuffer index \(position) out of 0..<\(count)")
        guard let element = slots[(head + position) & (slots.count - 1)] else {
            preconditionFailure("RingBuffer: a live slot is empty")
        }
        return element
    }

    /// Adds `element` as the newest.
    mutating func append(_ element: Element) {
        if count == slots.count { grow() }
        slots[(head + count) & (slots.count - 1)] = element
        count += 1
    }

    /// Removes and returns the oldest element; the queue must not be empty.
    @discardableResult
    mutating func removeFirst() -> Element {
        precondition(count > 0, "RingBuffer.removeFirst on an empty queue")
        guard let element = slots[head].take() else { preconditionFailure("RingBuffer: a live slot is empty") }
        head = (head + 1) & (slots.count - 1)
        count -= 1
        return element
    }

    /// Doubles the buffer (16 places at first), moving the elements to the front in order.
    private mutating func grow() {
        var grown = [Element?](repeating: nil, count: Swift.max(16, slots.count * 2))
        for position in 0..<count {
            grown[position] = slots[(head + position) & (slots.count - 1)].take()
        }
        slots = grown
        head = 0
    }
}
