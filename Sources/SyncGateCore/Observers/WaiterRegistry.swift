/// The waiters of ``SyncEnvironment/waitUntil(_:conditions:timeout:)``, as a pure value.
///
/// Each waiter moves through `pending` (registered, no continuation yet) to `waiting` (continuation
/// stored) and is removed exactly once: by a status that satisfies it, by its timeout, or by
/// cancellation. An outcome that arrives while the waiter is still pending is kept until the
/// continuation arrives, so the early-cancel and early-timeout races resume it exactly once.
///
/// Waiters are grouped by what they wait for, so a status change examines each distinct
/// (requirements, conditions) pair once, whatever the number of waiters, and releasing a waiter
/// costs O(1).
struct WaiterRegistry<Continuation> {
    /// What a group of waiters waits for.
    struct Key: Hashable {
        var requirements: SyncRequirements
        var conditions: Set<SyncCondition>
        var allowedNetworks: SyncNetworkAllowlist? = nil

        /// Whether `status` satisfies the waiters of this key.
        func isSatisfied(by status: SyncEnvironmentStatus) -> Bool {
            status.satisfies(requirements, allowedNetworks: allowedNetworks, conditions: conditions)
        }
    }

    /// How a waiter ends.
    enum Outcome {
        case satisfied(SyncEnvironmentStatus)
        case timedOut
        case cancelled
    }

    private enum Entry {
        /// Registered; the continuation has not arrived yet.
        case pending(Key)
        /// Suspended on its continuation.
        case waiting(Key, Continuation)
        /// Ended before its continuation arrived; the outcome waits for it.
        case ended(Outcome)
    }

    private var entries: [UInt64: Entry] = [:]
    private var groups: [Key: Set<UInt64>] = [:]
    private var nextID: UInt64 = 0

    /// The number of waiters not yet ended or whose outcome has not been delivered.
    var count: Int { entries.count }

    /// The number of distinct (requirements, conditions) groups being waited for.
    var groupCount: Int { groups.count }

    /// Registers a waiter and returns its id.
    mutating func register(_ key: Key) -> UInt64 {
        nextID += 1
        entries[nextID] = .pending(key)
        groups[key, default: []].insert(nextID)
        return nextID
    }

    /// Stores the waiter's continuation, or returns the outcome it must be resumed with now.
    ///
    /// - Parameter status: the current status, checked once more so a change made between registering
    ///   and suspending is not missed.
    mutating func suspend(_ id: UInt64, _ continuation: Continuation, status: SyncEnvironmentStatus) -> Outcome? {
        switch entries[id] {
        case .pending(let key):
            if key.isSatisfied(by: status) {
                remove(id, key: key)
                return .satisfied(status)
            }
            entries[id] = .waiting(key, continuation)
            return nil
        case .ended(let outcome):
            entries[id] = nil
            return outcome
        case .waiting, nil:
            preconditionFailure("waiter \(id) suspended twice")
        }
    }

    /// Ends a waiter by timeout or cancellation; returns the continuation to resume, if it is suspended.
    mutating func end(_ id: UInt64, _ outcome: Outcome) -> Continuation? {
        switch entries[id] {
        case .pending(let key):
            groups[key]?.remove(id)
            if groups[key]?.isEmpty == true { groups[key] = nil }
            entries[id] = .ended(outcome)
            return nil
        case .waiting(let key, let continuation):
            remove(id, key: key)
            return continuation
        case .ended, nil:
            return nil
        }
    }

    /// Ends every waiter that `status` satisfies; returns the continuations to resume with it.
    mutating func release(on status: SyncEnvironmentStatus) -> [Continuation] {
        var resumed: [Continuation] = []
        for (key, ids) in groups where key.isSatisfied(by: status) {
            groups[key] = nil
            for id in ids {
                switch entries[id] {
                case .pending:
                    entries[id] = .ended(.satisfied(status))
                case .waiting(_, let continuation):
                    entries[id] = nil
                    resumed.append(continuation)
                case .ended, nil:
                    break
                }
            }
        }
        return resumed
    }

    private mutating func remove(_ id: UInt64, key: Key) {
        entries[id] = nil
        groups[key]?.remove(id)
        if groups[key]?.isEmpty == true { groups[key] = nil }
    }
}
