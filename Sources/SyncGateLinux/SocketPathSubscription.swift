import SyncGateCore

#if os(Linux)
    import Dispatch

    /// One wait for a Unix socket path to be created, sharing the process's one ``SocketPathWatch`` of
    /// that path with every other wait for it.
    ///
    /// Every D-Bus follower of a process that finds no system bus waits for the same socket file; each
    /// waiting with an inotify instance of its own would hold one instance per follower (the kernel allows
    /// 128 per user by default), and a process ends only after each instance that watches something has
    /// been released, which waits for the kernel's grace period once per instance. So the watches of one
    /// path are one: the first subscription starts it, each later one joins it, and the last one to be
    /// cancelled ends it. When the socket appears, every subscription's `onAppeared` runs once, on its
    /// own queue, and the watch ends.
    ///
    /// A watch that found the socket already present (a stale one) does not await its creation; a new
    /// subscription then replaces it with a fresh watch, which the subscriptions already there share too.
    final class SocketPathSubscription: Sendable {
        private let path: String
        private let token: UInt64
        /// Whether the subscription is still waiting: neither reported nor cancelled.
        private let pending = LockedState(true)

        /// Waits for `path`; `onAppeared` runs once on `queue` when the socket is created. `nil` when the
        /// path is not absolute or inotify is unavailable.
        init?(path: String, queue: DispatchQueue, onAppeared: @escaping @Sendable () -> Void) {
            self.path = path
            guard let token = Registry.shared.subscribe(path: path, queue: queue, pending: pending, onAppeared)
            else { return nil }
            self.token = token
        }

        deinit {
            cancel()
        }

        /// Whether a creation of the socket will be reported from now on, and none was missed: this
        /// subscription still waits, and the shared watch still waits and found no socket when it started.
        var awaitsCreation: Bool {
            pending.withLock { $0 } && Registry.shared.awaitsCreation(path: path)
        }

        /// The watch this subscription shares, while it waits.
        var sharedWatch: SocketPathWatch? {
            pending.withLock { $0 } ? Registry.shared.watch(path: path, token: token) : nil
        }

        /// Ends this wait; `onAppeared` will not be scheduled after this returns (a call already scheduled
        /// may still run). The shared watch ends with its last subscription.
        func cancel() {
            guard
                pending.withLock({ state in
                    defer { state = false }
                    return state
                })
            else { return }
            Registry.shared.unsubscribe(path: path, token: token)
        }

        /// The process's watches, one per path, and their subscribers.
        private final class Registry: Sendable {
            static let shared = Registry()

            private struct Subscriber {
                var queue: DispatchQueue
                var pending: LockedState<Bool>
                var onAppeared: @Sendable () -> Void
            }

            private struct Entry {
                var generation: UInt64
                var watch: SocketPathWatch
                var subscribers: [UInt64: Subscriber]
            }

            private struct State {
                var nextToken: UInt64 = 0
                var entries: [String: Entry] = [:]
            }

            private let state = LockedState(State())
            /// The queue on which the shared watches read their events.
            private let queue = DispatchQueue(label: "syncgate.socket-path-watch")

            func subscribe(
                path: String, queue subscriberQueue: DispatchQueue, pending: LockedState<Bool>,
                _ onAppeared: @escaping @Sendable () -> Void
            ) -> UInt64? {
                let subscriber = Subscriber(queue: subscriberQueue, pending: pending, onAppeared: onAppeared)
                var replaced: SocketPathWatch?
                let token: UInt64? = state.withLock { state in
                    state.nextToken += 1
                    let token = state.nextToken
                    if var entry = state.entries[path], entry.watch.awaitsCreation {
                        entry.subscribers[token] = subscriber
                        state.entries[path] = entry
                        return token
                    }
                    // None yet, or one that cannot report a creation any more: start a fresh watch, shared by
                    // the subscribers of the one it replaces.
                    let generation = token
                    guard
                        let watch = SocketPathWatch(
                            path: path, queue: queue,
                            onAppeared: { self.appeared(path: path, generation: generation) })
                    else { return nil }
                    var subscribers = state.entries[path]?.subscribers ?? [:]
                    replaced = state.entries[path]?.watch
                    subscribers[token] = subscriber
                    state.entries[path] = Entry(generation: generation, watch: watch, subscribers: subscribers)
                    return token
                }
                replaced?.cancel()
                return token
            }

            func unsubscribe(path: String, token: UInt64) {
                let ended: SocketPathWatch? = state.withLock { state in
                    guard var entry = state.entries[path], entry.subscribers.removeValue(forKey: token) != nil
                    else { return nil }
                    guard entry.subscribers.isEmpty else {
                        state.entries[path] = entry
                        return nil
                    }
                    state.entries[path] = nil
                    return entry.watch
                }
                ended?.cancel()
            }

            func watch(path: String, token: UInt64) -> SocketPathWatch? {
                state.withLock { state in
                    state.entries[path].flatMap { $0.subscribers[token] == nil ? nil : $0.watch }
                }
            }

            func awaitsCreation(path: String) -> Bool {
                state.withLock { $0.entries[path]?.watch.awaitsCreation ?? false }
            }

            /// The watch of `generation` saw the socket created: every subscriber of it is told once.
            private func appeared(path: String, generation: UInt64) {
                let subscribers: [Subscriber] = state.withLock { state in
                    guard let entry = state.entries[path], entry.generation == generation else { return [] }
                    state.entries[path] = nil
                    return Array(entry.subscribers.values)
                }
                for subscriber in subscribers
                where subscriber.pending.withLock({ state in
                    defer { state = false }
                    return state
                }) {
                    subscriber.queue.async { subscriber.onAppeared() }
                }
            }
        }
    }
#endif
