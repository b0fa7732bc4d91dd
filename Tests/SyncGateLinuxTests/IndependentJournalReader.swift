#if os(Linux)
    /// A reader of the durable-job journal written from the format's description alone, sharing no code
    /// with `FileJobStore`: the attack tests check the store's promises against it.
    ///
    /// The file is an 8-byte header, then frames `magic "RJGS" (4) | body length (4) | CRC-32C of length and
    /// body (4) | body`, little-endian. A submission body is `1 | sequence | id | kind | payload | …`, a
    /// resolution `4 | sequence | resolution`, with LEB128 sequences and length-prefixed strings. Bytes that
    /// do not start a frame passing its checksum are stepped over one at a time.
    struct IndependentJournalReader {
        /// A submission the journal holds.
        struct Job: Equatable {
            var sequence: UInt64
            var id: String
            var payload: [UInt8]
        }

        /// A frame that passed its checksum: where it is, and the job it is about.
        struct Frame {
            var offset: Int
            var end: Int
            var type: UInt8
            var sequence: UInt64
            var job: Job?
        }

        /// Every frame passing its checksum, in file order.
        private(set) var frames: [Frame] = []
        /// The unresolved jobs after every frame is applied, by sequence.
        private(set) var live: [UInt64: Job] = [:]
        /// Whether the file starts with a journal header.
        private(set) var hasHeader = false

        init(_ bytes: [UInt8]) {
            hasHeader = bytes.count >= 8 && Array(bytes[0..<6]) == Array("SGJRNL".utf8)
            var offset = 8
            while offset + 12 <= bytes.count {
                guard let frame = Self.frame(bytes, at: offset) else {
                    offset += 1
                    continue
                }
                frames.append(frame)
                switch frame.type {
                case 1: live[frame.sequence] = frame.job
                case 4: live[frame.sequence] = nil
                default: break
                }
                offset = frame.end
            }
        }

        /// The unresolved jobs' ids.
        var liveIDs: Set<String> { Set(live.values.map(\.id)) }

        private static func uint32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
            (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
        }

        private static func frame(_ bytes: [UInt8], at offset: Int) -> Frame? {
            guard uint32(bytes, offset) == 0x5347_4A52 else { return nil }
            let length = Int(uint32(bytes, offset + 4))
            let end = offset + 12 + length
            guard length > 0, end <= bytes.count else { return nil }
            guard crc32c(bytes[(offset + 4)..<(offset + 8)] + bytes[(offset + 12)..<end]) == uint32(bytes, offset + 8)
            else { return nil }
            var cursor = offset + 12
            func varint() -> UInt64? {
                var value: UInt64 = 0
                var shift: UInt64 = 0
                while cursor < end, shift < 64 {
                    let byte = bytes[cursor]
                    cursor += 1
                    value |= UInt64(byte & 0x7F) << shift
                    if byte & 0x80 == 0 { return value }
                    shift += 7
                }
                return nil
            }
            func field() -> [UInt8]? {
                guard let count = varint(), count <= UInt64(end - cursor) else { return nil }
                defer { cursor += Int(count) }
                return Array(bytes[cursor..<cursor + Int(count)])
            }
            let type = bytes[cursor]
            cursor += 1
            guard let sequence = varint() else { return nil }
            var job: Job?
            if type == 1 {
                guard let id = field(), field() != nil, let payload = field() else { return nil }
                job = Job(sequence: sequence, id: String(decoding: id, as: UTF8.self), payload: payload)
            }
            return Frame(offset: offset, end: end, type: type, sequence: sequence, job: job)
        }

        /// CRC-32C (Castagnoli), bit by bit.
        static func crc32c(_ bytes: some Sequence<UInt8>) -> UInt32 {
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in bytes {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
            }
            return ~crc
        }
    }
#endif
