/// What a stream owner has to yield to its streams, in order, handed out after the lock that ordered it.
///
/// An owner that yielded to `AsyncStream` continuations inside its lock would deadlock with a consumer
/// being cancelled: the Swift runtime runs the stream's `onTermination` inside its lock of the
/// consumer's task, `onTermination` removes the subscriber under the owner's lock, and the yield waits
/// for the runtime's lock to resume that same consumer. So the owner queues each delivery inside its
/// critical section, which fixes the order, and yields after it:
///
/// * The first sender to find the queue idle gets its delivery back from ``enqueue(_:)``, delivers it
///   with no lock held, and then drains what others queued meanwhile (``drain(startingWith:next:)``).
/// * A sender that finds a drain in progress only adds to the queue and returns; the draining thread
///   yields its delivery, after every earlier one.
///
/// So no lock of the owner is held while a stream is yielded to or finished, `onTermination` may simply
/// take the owner's lock, and each stream still sees deliveries in the order of the critical sections
/// that made them. A pure value, kept inside the owner's locked state.
package struct DeliveryQueue<Delivery> {
    private var pending: [Delivery] = []
    private var isDraining = false

    /// An idle queue.
    package init() {}

    /// Queues `delivery`; returns it when the caller must deliver it and then drain, or `nil` when a
    /// drain in progress will deliver it.
    package mutating func enqueue(_ delivery: Delivery) -> Delivery? {
        guard !isDraining else {
            pending.append(delivery)
            return nil
        }
        isDraining = true
        return delivery
    }

    /// Takes every queued delivery; when none is queued, ends the drain and returns an empty array.
    package mutating func takeAll() -> [Delivery] {
        guard !pending.isEmpty else {
            isDraining = false
            return []
        }
        defer { pending = [] }
        return pending
    }
}

/// The end of a stream that a ``DeliveryQueue`` hands values to: an `AsyncStream` continuation
/// (``StreamEnd``), or a broadcast's subscriber that wraps one.
package protocol DeliveryTarget {
    /// What one delivery hands over.
    associatedtype Payload
    /// Hands over `payload` (yields it, or what the stream shows of it).
    func receive(_ payload: Payload)
    /// Ends the stream.
    func finish()
}

/// One critical section's delivery to the streams that were subscribed then: a value, or their end.
package enum StreamDelivery<Target: DeliveryTarget> {
    /// Hands the payload to each target.
    case send([Target], Target.Payload)
    /// Ends each target's stream.
    case finish([Target])
}

extension DeliveryQueue {
    /// Delivers `first`, then every batch `next` takes (under the owner's lock, with ``takeAll()``) until
    /// it returns an empty one, to the targets each delivery names; call with no lock held.
    package static func drain<Target>(
        startingWith first: Delivery, next: () -> [Delivery]
    ) where Delivery == StreamDelivery<Target> {
        deliver(first)
        while true {
            let batch = next()
            if batch.isEmpty { return }
            for delivery in batch { deliver(delivery) }
        }
    }

    /// Hands one delivery to its targets.
    private static func deliver<Target>(_ delivery: StreamDelivery<Target>) {
        switch delivery {
        case .send(let targets, let payload):
            for target in targets { target.receive(payload) }
        case .finish(let targets):
            for target in targets { target.finish() }
        }
    }
}

/// An `AsyncStream` continuation as a ``DeliveryTarget``: each delivery yields its element.
package struct StreamEnd<Element: Sendable>: DeliveryTarget {
    /// The stream's continuation.
    package let continuation: AsyncStream<Element>.Continuation

    /// Wraps `continuation`.
    package init(_ continuation: AsyncStream<Element>.Continuation) {
        self.continuation = continuation
    }

    /// Yields `element`.
    package func receive(_ element: Element) {
        continuation.yield(element)
    }

    /// Ends the stream.
    package func finish() {
        continuation.finish()
    }
}
