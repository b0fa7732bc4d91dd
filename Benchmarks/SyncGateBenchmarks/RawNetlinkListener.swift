#if os(Linux)
    import Foundation
    import SyncGate
    import SyncGateWire

    /// Scenario 8's baseline: a bare netlink socket subscribed to link and IPv4 route events in the observed
    /// namespace, read by its own thread blocked in `poll`; it stamps each wake-up that brings news of the
    /// watched link or of the IPv4 default route.
    final class RawNetlinkListener: @unchecked Sendable {
        /// What one message said.
        enum News: Equatable {
            /// The watched link is usable (up and carrier) or not.
            case link(usable: Bool)
            /// The IPv4 default route of the main table was added or deleted.
            case defaultRoute(present: Bool)
        }

        private static let mainTable: UInt32 = 254
        private let socket: NetlinkSocket
        private let index: Int32
        private let stopRequested = LockedState(false)
        private let events = LockedState<[(instant: ContinuousClock.Instant, news: News)]>([])
        /// With `lookingUp`: for each route message, when the reply to one route lookup sent after it arrived.
        private let lookups = LockedState<[(instant: ContinuousClock.Instant, news: News)]>([])
        private let lookupSocket: NetlinkSocket?
        private var lookupSequence: UInt32 = 0
        private let finished = DispatchSemaphore(value: 0)
        /// A continuation to resume, from the reading thread, on the next message that brings this news.
        private let armed = LockedState<(news: News, continuation: CheckedContinuation<Void, Never>)?>(nil)

        /// Opens the socket in the calling thread's namespace, watching the link with `index`.
        /// With `lookingUp`, the thread also sends one `RTM_GETROUTE` lookup (IPv4, 8.8.8.8) after each
        /// default-route message, after it has stamped the message's arrival, and stamps the reply: the least
        /// an observer that confirms the route with the kernel does.
        init(watching index: Int32, lookingUp: Bool = false) throws {
            socket = try NetlinkSocket(
                groups: Netlink.Group.link | Netlink.Group.ipv4Route, receiveBufferSize: nil, bufferSize: 64 * 1024)
            lookupSocket = lookingUp ? try NetlinkSocket(groups: 0, receiveBufferSize: nil, bufferSize: 64 * 1024) : nil
            self.index = index
        }

        /// Sends one route lookup and waits (at most 1 s) for its reply; returns when it arrived.
        private func lookUp(on lookup: NetlinkSocket) -> ContinuousClock.Instant? {
            lookupSequence &+= 1
            let sequence = lookupSequence
            guard let request = NetlinkRequest.routeLookup(destination: [8, 8, 8, 8], sequence: sequence),
                lookup.send(request) == nil
            else { return nil }
            let deadline = ContinuousClock.now + .seconds(1)
            while ContinuousClock.now < deadline {
                guard lookup.waitReadable(milliseconds: 100) else { continue }
                while case .datagram(let bytes) = lookup.receive() {
                    if NetlinkMessage.parse(bytes).messages.contains(where: { $0.sequence == sequence }) {
                        return ContinuousClock.now
                    }
                }
            }
            return nil
        }

        /// Starts the reading thread.
        func start() {
            let thread = Thread { [self] in
                while !stopRequested.withLock({ $0 }) {
                    guard socket.waitReadable(milliseconds: 50) else { continue }
                    let now = ContinuousClock.now
                    while case .datagram(let bytes) = socket.receive() {
                        for message in NetlinkMessage.parse(bytes).messages {
                            guard let news = news(in: message) else { continue }
                            events.withLock { $0.append((now, news)) }
                            if let lookupSocket, case .defaultRoute = news, let replied = lookUp(on: lookupSocket) {
                                lookups.withLock { $0.append((replied, news)) }
                            }
                            let matched = armed.withLock { slot -> CheckedContinuation<Void, Never>? in
                                guard let waiting = slot, waiting.news == news else { return nil }
                                slot = nil
                                return waiting.continuation
                            }
                            matched?.resume()
                        }
                    }
                }
                socket.close()
                lookupSocket?.close()
                finished.signal()
            }
            thread.start()
        }

        private func news(in message: NetlinkMessage) -> News? {
            if let link = NetlinkLink.decode(message), link.index == index {
                return .link(usable: link.isUsable)
            }
            if let route = NetlinkRoute.decode(message), route.family == Netlink.familyIPv4,
                route.destinationLength == 0, route.table == Self.mainTable
            {
                return .defaultRoute(present: message.type == Netlink.MessageType.newRoute)
            }
            return nil
        }

        /// Makes the reading thread resume `continuation` as soon as it reads a message that brings `news`.
        func arm(for news: News, _ continuation: CheckedContinuation<Void, Never>) {
            armed.withLock { $0 = (news, continuation) }
        }

        /// Forgets the events seen so far.
        func reset() {
            events.withLock { $0 = [] }
            lookups.withLock { $0 = [] }
        }

        /// With `lookingUp`: when the reply to the lookup after the first `news` arrived.
        func firstLookup(_ news: News) -> ContinuousClock.Instant? {
            lookups.withLock { $0.first { $0.news == news }?.instant }
        }

        /// The first event since the last reset that brought `news`, if any.
        func first(_ news: News) -> ContinuousClock.Instant? {
            events.withLock { $0.first { $0.news == news }?.instant }
        }

        /// Stops the thread and waits for it to close the socket.
        func stop() {
            stopRequested.withLock { $0 = true }
            finished.wait()
        }
    }
#endif
