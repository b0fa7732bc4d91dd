#if os(Linux)
    import SyncGateWire

    /// Request–reply exchanges on a request-only rtnetlink socket: link and rule dumps, single links, route
    /// lookups.
    ///
    /// Blocking, with a bounded wait per exchange; replies are matched on the sequence number, so a late
    /// reply to an earlier request is skipped. Owned by the reader's thread.
    final class NetlinkQueryClient {
        private let socket: NetlinkSocket
        private var sequence: UInt32 = 0
        private let timeoutMilliseconds: Int32
        /// Whether an earlier exchange may have left replies behind (it failed or timed out).
        private var mayHoldStaleReplies = false

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

        /// Every routing policy rule of every family; `nil` when no complete, consistent dump was read.
        func dumpRules() -> [NetlinkRule]? {
            var rules: [NetlinkRule] = []
            var consistent = true
            let completed = exchange(NetlinkRequest.ruleDump(sequence: nextSequence())) { message in
                if message.isDumpInterrupted { consistent = false }
                if message.type == Netlink.MessageType.done { return true }
                if let code = message.errorCode {
                    consistent = consistent && code == 0
                    return true
                }
                if let rule = NetlinkRule.decode(message) { rules.append(rule) }
                return false
            }
            return completed && consistent ? rules : nil
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
            guard var batch = RouteLookupBatch(destinations: [destination]) else { return .noAnswer }
            return lookupRoutes(&batch)[0]
        }

        /// Looks up the FIB entries of every destination of `batch` with one request datagram.
        ///
        /// The kernel answers a route lookup while handling the `sendto`, so the replies are normally
        /// queued by the time it returns: they are read at once, and `poll` is only entered when one is
        /// missing. Returns one result per destination, in order (``RouteLookupResult/noAnswer`` for
        /// those that got none).
        func lookupRoutes(_ batch: inout RouteLookupBatch) -> [RouteLookupResult] {
            batch.renumber { nextSequence() }
            var results = [RouteLookupResult](repeating: .noAnswer, count: batch.count)
            var missing = batch.count
            let sequences = batch.sequences
            _ = exchange(batch.bytes, sequences: sequences) { message in
                guard let position = sequences.firstIndex(of: message.sequence),
                    case .noAnswer = results[position],
                    let answer = RouteLookupResult.answer(in: [message], sequence: message.sequence)
                else { return false }
                results[position] = answer
                missing -= 1
                return missing == 0
            }
            return results
        }

        private func nextSequence() -> UInt32 {
            sequence &+= 1
            if sequence == 0 { sequence = 1 }
            return sequence
        }

        /// Sends the one request in `request` and feeds each reply message carrying its sequence number to
        /// `handle` until it returns `true`. Returns `false` when sending failed or the replies stopped
        /// before that.
        private func exchange(_ request: [UInt8], handle: (NetlinkMessage) -> Bool) -> Bool {
            guard let sequence = NetlinkBytes.load(UInt32.self, from: request, at: 8) else { return false }
            return exchange(request, sequences: [sequence], handle: handle)
        }

        /// Sends `request` (one or more requests) and feeds each reply message carrying one of `sequences`
        /// to `handle` until it returns `true`. Returns `false` when sending failed or the replies stopped
        /// before that.
        ///
        /// Replies are read without waiting first; `poll` bounds each wait for a reply that is not there yet.
        private func exchange(_ request: [UInt8], sequences: [UInt32], handle: (NetlinkMessage) -> Bool) -> Bool {
            if mayHoldStaleReplies {
                // Drop anything left over from an earlier exchange that failed or timed out.
                while case .datagram = socket.receive() {}
                mayHoldStaleReplies = false
            }
            guard socket.send(request) == nil else {
                mayHoldStaleReplies = true
                return false
            }
            while true {
                switch socket.receive() {
                case .datagram(let bytes):
                    for message in NetlinkMessage.parse(bytes).messages
                    where sequences.contains(message.sequence) && handle(message) {
                        return true
                    }
                case .ignored:
                    continue
                case .wouldBlock:
                    guard socket.waitReadable(milliseconds: timeoutMilliseconds) else {
                        mayHoldStaleReplies = true
                        return false
                    }
                case .overflow, .failed:
                    mayHoldStaleReplies = true
                    return false
                }
            }
        }
    }
#endif
