/// The records found in a journal's bytes, the problems met, and where the good bytes end.
///
/// Scanning never fails: a frame that fails its checksum is skipped up to the next frame that passes
/// its own (found by its magic), and reported; a frame cut off by the end of the file, or bad bytes
/// with no good frame after them, are a torn tail: `validLength` excludes them so the file can be cut
/// back to its last good record. Zeros from a frame's end to the end of the file are unused space (a store
/// allocates space ahead of its records), neither a frame nor a problem: ``unusedLength`` counts them.
struct JournalScan {
    /// The records, in file order; empty when the scan handed them to a visitor instead.
    var records: [JobRecord] = []
    /// The number of frames and skipped regions (live or not), for compaction accounting.
    var frameCount = 0
    /// What was skipped or cut.
    var issues: [JobStoreIssue] = []
    /// The length of the file up to the end of its last good frame.
    var validLength: Int
    /// The zeros from ``validLength`` to the end of the file: space allocated ahead of the records.
    var unusedLength = 0
    /// The first frame that passed its checksum and that the decoder of the scan's version could not read
    /// but that of another readable version could: the file's header names the wrong version (a damaged
    /// header), since no writer puts records of two versions in one file.
    var recordOfOtherVersion: (offset: Int, version: Int)?

    /// Scans `bytes` (a whole file, header included) with the decoder of format `version`; `path` only
    /// names the file in issues.
    ///
    /// A record that decoder cannot read is read by the newest other readable version that can when
    /// `readsOtherVersions` is set (salvaging a journal whose header cannot be trusted), and is otherwise
    /// skipped as unreadable and noted in ``recordOfOtherVersion``.
    init(
        _ bytes: UnsafeRawBufferPointer, path: String, version: Int = JournalCodec.currentVersion,
        readsOtherVersions: Bool = false
    ) {
        var records: [JobRecord] = []
        self.init(bytes, path: path, version: version, readsOtherVersions: readsOtherVersions) { records.append($0) }
        self.records = records
    }

    /// Scans `bytes` as above, handing each record to `visit` in file order as it is read (``records``
    /// stays empty), so the records of a large journal are never all held at once.
    init(
        _ bytes: UnsafeRawBufferPointer, path: String, version: Int = JournalCodec.currentVersion,
        readsOtherVersions: Bool = false, visit: (JobRecord) -> Void
    ) {
        let start = JournalCodec.headerLength
        validLength = min(start, bytes.count)
        var offset = start
        while offset < bytes.count {
            if bytes[offset] == 0, Self.isZero(bytes, from: offset) {
                if offset == validLength { unusedLength = bytes.count - offset }
                return
            }
            switch Self.frame(in: bytes, at: offset) {
            case .valid(let body, let end):
                frameCount += 1
                do {
                    visit(try JournalCodec.decode(body, version: version))
                } catch {
                    let other = JournalCodec.readableVersions.reversed().lazy.filter { $0 != version }
                        .compactMap { other in (try? JournalCodec.decode(body, version: other)).map { (other, $0) } }
                        .first
                    if let other, recordOfOtherVersion == nil { recordOfOtherVersion = (offset, other.0) }
                    if let other, readsOtherVersions {
                        visit(other.1)
                    } else {
                        issues.append(
                            JobStoreIssue(
                                kind: .unreadableRecord, path: path, offset: offset, length: end - offset,
                                detail: "\(error)"))
                    }
                }
                offset = end
                validLength = end
            case .incomplete where Self.nextValidFrame(in: bytes, after: offset) == nil:
                issues.append(
                    JobStoreIssue(
                        kind: .truncatedTail, path: path, offset: offset, length: bytes.count - offset,
                        detail: "the last record is incomplete"))
                return
            case .incomplete:
                // A corrupt length that points past the end, with good records after it: skip.
                let next = Self.nextValidFrame(in: bytes, after: offset) ?? bytes.count
                frameCount += 1
                issues.append(
                    JobStoreIssue(
                        kind: .checksumMismatch, path: path, offset: offset, length: next - offset,
                        detail: "length runs past the end of the file"))
                offset = next
            case .invalid(let reason):
                guard let next = Self.nextValidFrame(in: bytes, after: offset) else {
                    issues.append(
                        JobStoreIssue(
                            kind: .truncatedTail, path: path, offset: offset, length: bytes.count - offset,
                            detail: "\(reason), and no good record follows"))
                    return
                }
                frameCount += 1
                issues.append(
                    JobStoreIssue(
                        kind: .checksumMismatch, path: path, offset: offset, length: next - offset, detail: reason))
                offset = next
            }
        }
    }

    /// Whether every byte from `offset` to the end is zero.
    private static func isZero(_ bytes: UnsafeRawBufferPointer, from offset: Int) -> Bool {
        var index = offset
        while index < bytes.count {
            if bytes[index] != 0 { return false }
            index += 1
        }
        return true
    }

    private enum Frame {
        case valid(body: UnsafeRawBufferPointer, end: Int)
        case incomplete
        case invalid(String)
    }

    private static func uint32(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt32 {
        var value: UInt32 = 0
        for index in 0..<4 { value |= UInt32(bytes[offset + index]) << (8 * index) }
        return value
    }

    private static func frame(in bytes: UnsafeRawBufferPointer, at offset: Int) -> Frame {
        let remaining = bytes.count - offset
        guard remaining >= JournalCodec.frameOverhead else {
            return remaining >= 4 && uint32(bytes, offset) != JournalCodec.magic ? .invalid("bad magic") : .incomplete
        }
        guard uint32(bytes, offset) == JournalCodec.magic else { return .invalid("bad magic") }
        let length = Int(uint32(bytes, offset + 4))
        guard length <= JournalCodec.maximumBodyLength else { return .invalid("impossible length \(length)") }
        let end = offset + JournalCodec.frameOverhead + length
        let checked = UnsafeRawBufferPointer(rebasing: bytes[(offset + 4)..<(offset + 8)])
        let body = UnsafeRawBufferPointer(
            rebasing: bytes[(offset + JournalCodec.frameOverhead)..<min(end, bytes.count)])
        guard end <= bytes.count else {
            return .incomplete
        }
        let crc = checksum(checked, body)
        guard crc == uint32(bytes, offset + 8) else { return .invalid("checksum mismatch") }
        return .valid(body: body, end: end)
    }

    private static func checksum(_ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer) -> UInt32 {
        CRC32C.finish(CRC32C.update(CRC32C.update(CRC32C.initial, first), second))
    }

    /// The offset of the first frame after `offset` that passes its checksum.
    private static func nextValidFrame(in bytes: UnsafeRawBufferPointer, after offset: Int) -> Int? {
        var candidate = offset + 1
        while candidate + JournalCodec.frameOverhead <= bytes.count {
            if bytes[candidate] == 0x52, uint32(bytes, candidate) == JournalCodec.magic,
                case .valid = frame(in: bytes, at: candidate)
            {
                return candidate
            }
            candidate += 1
        }
        return nil
    }
}
