#if os(Linux)
    import SyncGateWire

    /// Several `RTM_GETROUTE` requests prepared once and sent together in one datagram.
    ///
    /// The kernel handles every message of a request datagram in turn and answers each with its own
    /// reply, so one `sendto` serves every probe. The bytes are built once; only the sequence numbers are
    /// rewritten before each exchange.
    struct RouteLookupBatch {
        /// The request datagram: the lookups back to back.
        private(set) var bytes: [UInt8]
        /// Where each lookup's `nlmsg_seq` sits in ``bytes``.
        private let sequenceOffsets: [Int]
        /// The sequence number each lookup carries now, in the order of the destinations.
        private(set) var sequences: [UInt32]

        /// Prepares lookups of `destinations` (each 4 or 16 bytes, network order); `nil` when there are
        /// none or one of them has another length.
        init?(destinations: [[UInt8]]) {
            guard !destinations.isEmpty else { return nil }
            var bytes: [UInt8] = []
            var offsets: [Int] = []
            for destination in destinations {
                guard let request = NetlinkRequest.routeLookup(destination: destination, sequence: 0) else {
                    return nil
                }
                offsets.append(bytes.count + 8)
                bytes += request
            }
            self.bytes = bytes
            sequenceOffsets = offsets
            sequences = Array(repeating: 0, count: destinations.count)
        }

        /// The number of lookups.
        var count: Int { sequences.count }

        /// Gives the lookups the sequence numbers `next()` returns, in order.
        mutating func renumber(_ next: () -> UInt32) {
            for (position, offset) in sequenceOffsets.enumerated() {
                let sequence = next()
                sequences[position] = sequence
                NetlinkBytes.store(sequence, into: &bytes, at: offset)
            }
        }
    }
#endif
