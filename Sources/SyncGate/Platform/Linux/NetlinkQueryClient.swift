#if os(Linux)
    import SyncGateWire

    /// Request–reply exchanges on a request-only rtnetlink socket: link dumps, single links, route lookups.
    ///
    /// Blocking, with a bounded wait per exchange; replies are matched on the sequence number, so a late
    /// reply to an earlier request is skipped. Owned by the reader's thread.
    final class NetlinkQueryClient {
        private let socket: NetlinkSocket
        private var sequence: UInt32 = 0
        private let timeoutMilliseconds: Int32

        /// Opens the request socket.
        init(timeoutMilliseconds: Int32 = 2_000) throws(ConnectivityObserverError) {
            socket = try NetlinkSocket(groups: 0, receiveBufferSize: nil, bufferSize: 64 * 1024)
            self.timeoutMilliseconds = timeoutMilliseconds
        }

        /// The socket's descriptor.
        var fileDescriptor: Int32 { socket.fileDescriptor }

        /// Closes the socket.
        func close() {
            socket.close()
        }

        /// Every link of family `AF_UNSPEC`, keyed by index; repeats an interrupted dump a few times.
        ///
        /// - Returns: `nil` when no consistent dump could be read.
        func dumpLinks() -> [Int32: NetlinkLink]? {
            for _ in 0..<4 {
                var links: [Int32: NetlinkLink] = [:]
                var interrupted = false
                var failed = false
                let completed = exchange(NetlinkRequest.linkDump(sequence: nextSequence())) { message in
                    if message.isDumpInterrupted { interrupted = true }
                    if message.type == Netlink.MessageType.done { return true }
                    if let code = message.errorCode {
                        failed = code != 0
                        return true
                    }
                    if let link = NetlinkLink.decode(message) { links[link.index] = link }
                    return false
                }
                if completed && !failed && !interrupted { return links }
            }
            return nil
        }

        /// The link with `index`, or `nil` when it does not exist or the kernel did not answer.
        func link(index: Int32) -> NetlinkLink? {
            var result: NetlinkLink?
            _ = exchange(NetlinkRequest.getLink(index: index, sequence: nextSequence())) { message in
                if message.errorCode != nil { return true }
                if let link = NetlinkLink.decode(message) {
                    result = link
                    return true
                }
                return false
            }
            return result
        }

        /// Looks up the FIB entry for `destination` (4 or 16 bytes, network order).
        func lookupRoute(to destination: [UInt8]) -> RouteLookupResult {
            let sequence = nextSequence()
            guard let request = NetlinkRequest.routeLookup(destination: destination, sequence: sequence) else {
                return .noAnswer
            }
            var result = RouteLookupResult.noAnswer
            _ = exchange(request) { message in
                if let answer = RouteLookupResult.answer(in: [message], sequence: sequence) {
                    result = answer
                    return true
                }
                return message.type == Netlink.MessageType.done
            }
            return result
        }

        private func nextSequence() -> UInt32 {
            sequence &+= 1
            if sequence == 0 { sequence = 1 }
            return sequence
        }

        /// Sends `request` and feeds each reply message carrying its sequence number to `handle` until it
        /// returns `true`. Returns `false` when sending failed or the replies stopped before that.
        private func exchange(_ request: [UInt8], handle: (NetlinkMessage) -> Bool) -> Bool {
            guard let sequence = NetlinkBytes.load(UInt32.self, from: request, at: 8) else { return false }
            // Drop anything left over from an earlier exchange that timed out.
            while case .datagram = socket.receive() {}
            guard socket.send(request) == nil else { return false }
            while socket.waitReadable(milliseconds: timeoutMilliseconds) {
                switch socket.receive() {
                case .datagram(let bytes):
                    for message in NetlinkMessage.parse(bytes).messages where message.sequence == sequence {
                        if handle(message) { return true }
                    }
                case .ignored, .wouldBlock:
                    continue
                case .overflow, .failed:
                    return false
                }
            }
            return false
        }
    }
#endif
