/// An append-only list that keeps its first element inline: a list of one element allocates nothing.
///
/// The scheduler's critical sections collect what they leave for after the lock (jobs to release,
/// handles whose state streams end) in fresh lists, one per critical section, and most such lists hold
/// one element: a job's end retires one job and finishes one handle. An array would allocate its
/// storage for that one element every time; this list allocates only from the second element on.
/// Elements are visited in the order they were appended.
struct InlineFirstList<Element>: Sequence {
    private var first: Element?
    private var rest: [Element] = []

    /// Creates an empty list.
    init() {}

    /// Whether the list holds no element.
    var isEmpty: Bool { first == nil }

    /// The number of elements.
    var count: Int { first == nil ? 0 : 1 + rest.count }

    /// Adds `element` at the end.
    mutating func append(_ element: Element) {
        if first == nil {
            first = element
        } else {
            rest.append(element)
        }
    }

    /// Adds `elements` at the end, in order.
    mutating func append(contentsOf elements: some Sequence<Element>) {
        for element in elements { append(element) }
    }

    func makeIterator() -> Iterator {
        Iterator(first: first, rest: rest.makeIterator())
    }

    /// Visits the inline element, then the others.
    struct Iterator: IteratorProtocol {
        fileprivate var first: Element?
        fileprivate var rest: IndexingIterator<[Element]>

        mutating func next() -> Element? {
            if let element = first.take() { return element }
            return rest.next()
        }
    }
}
