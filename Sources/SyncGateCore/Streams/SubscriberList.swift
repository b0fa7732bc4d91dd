/// The subscribers of a broadcast, by id, kept inside the broadcast's locked state.
///
/// Besides the table, it keeps an array of the same subscribers, rebuilt when one comes or goes, so that
/// each delivery takes them all as one reference (``all``) instead of copying them out on every send.
package struct SubscriberList<Subscriber> {
    private var byID: [UInt64: Subscriber] = [:]
    /// Every subscriber, in no particular order.
    package private(set) var all: [Subscriber] = []

    /// An empty list.
    package init() {}

    /// The number of subscribers.
    package var count: Int { all.count }

    /// Adds `subscriber` under `id`.
    package mutating func insert(_ subscriber: Subscriber, id: UInt64) {
        byID[id] = subscriber
        all = Array(byID.values)
    }

    /// Removes the subscriber with `id`, if it is still listed.
    package mutating func remove(_ id: UInt64) {
        guard byID.removeValue(forKey: id) != nil else { return }
        all = Array(byID.values)
    }

    /// Removes every subscriber and returns them.
    package mutating func removeAll() -> [Subscriber] {
        defer {
            byID = [:]
            all = []
        }
        return all
    }
}
