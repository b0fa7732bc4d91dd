import Foundation

/// The journal's byte format, by version.
///
/// A file starts with the 8-byte header `SGJRNL` followed by its format version in two decimal digits
/// (`SGJRNL01`); then come frames, each `magic (4) | body length (4) | CRC-32C of length and body (4) |
/// body`, little-endian. The body is a type byte followed by the record's fields (see ``JournalWriter``).
///
/// Every record body is decoded by the decoder of the file's version (``decode(_:version:)``); a file of
/// a newer version than ``currentVersion`` is refused, one of an older version is rewritten in the
/// current version when it is opened. A change of the body layout takes a new version, a decoder for it
/// beside the old ones, and golden files of it (`Tests/SyncGateTests/Durable/Golden/`).
enum JournalCodec {
    /// The version this code writes.
    static let currentVersion = 1
    /// The versions this code reads.
    static let readableVersions = 1...currentVersion
    /// The header of a journal this code writes.
    static let header = header(version: currentVersion)
    /// The length of every header.
    static let headerLength = 8
    private static let headerPrefix: [UInt8] = Array("SGJRNL".utf8)

    /// The header of a journal of the given version (1...99).
    static func header(version: Int) -> [UInt8] {
        headerPrefix + [UInt8(ascii: "0") + UInt8(version / 10), UInt8(ascii: "0") + UInt8(version % 10)]
    }

    /// The version a header names, or `nil` when `bytes` do not start with a journal header.
    static func version(ofHeader bytes: some Collection<UInt8>) -> Int? {
        let header = Array(bytes.prefix(headerLength))
        guard header.count == headerLength, header.starts(with: headerPrefix) else { return nil }
        let digits = header[headerPrefix.count...].map { Int($0) - Int(UInt8(ascii: "0")) }
        guard digits.allSatisfy({ (0...9).contains($0) }) else { return nil }
        return digits[0] * 10 + digits[1]
    }
    static let magic: UInt32 = 0x5347_4A52
    static let frameOverhead = 12
    /// Bodies longer than this are taken as corruption.
    static let maximumBodyLength = 64 << 20

    private enum RecordType: UInt8 {
        case submitted = 1
        case attemptStarted = 2
        case attemptFinished = 3
        case resolved = 4
    }

    /// The record as a complete frame.
    static func frame(_ record: JobRecord) -> [UInt8] {
        let body = encode(record)
        var frame = JournalWriter()
        frame.uint32(magic)
        frame.uint32(UInt32(body.count))
        var checked = JournalWriter()
        checked.uint32(UInt32(body.count))
        let crc = (checked.bytes + body).withUnsafeBytes { CRC32C.checksum($0) }
        frame.uint32(crc)
        return frame.bytes + body
    }

    static func encode(_ record: JobRecord) -> [UInt8] {
        var writer = JournalWriter()
        switch record {
        case .submitted(let job):
            writer.byte(RecordType.submitted.rawValue)
            encode(job, into: &writer)
        case .attemptStarted(let sequence, let attempt):
            writer.byte(RecordType.attemptStarted.rawValue)
            writer.varint(sequence)
            writer.int(attempt)
        case .attemptFinished(let sequence, let failures, let retryAt):
            writer.byte(RecordType.attemptFinished.rawValue)
            writer.varint(sequence)
            writer.int(failures)
            writer.optionalDate(retryAt)
        case .resolved(let sequence, let resolution):
            writer.byte(RecordType.resolved.rawValue)
            writer.varint(sequence)
            writer.byte(resolution.rawValue)
        }
        return writer.bytes
    }

    /// Decodes a record body with the decoder of the file's format version.
    static func decode(_ body: UnsafeRawBufferPointer, version: Int) throws -> JobRecord {
        switch version {
        case 1: return try decodeVersion1(body)
        default: throw JournalReader.Malformed(description: "no decoder for journal format version \(version)")
        }
    }

    /// Version 1: the first format.
    private static func decodeVersion1(_ body: UnsafeRawBufferPointer) throws -> JobRecord {
        var reader = JournalReader(body)
        let type = try reader.byte()
        let record: JobRecord
        switch RecordType(rawValue: type) {
        case .submitted:
            record = .submitted(try decodeJob(&reader))
        case .attemptStarted:
            record = .attemptStarted(sequence: try reader.varint(), attempt: try reader.int())
        case .attemptFinished:
            record = .attemptFinished(
                sequence: try reader.varint(), failures: try reader.int(), retryAt: try reader.optionalDate())
        case .resolved:
            let sequence = try reader.varint()
            let raw = try reader.byte()
            guard let resolution = JobRecord.Resolution(rawValue: raw) else {
                throw JournalReader.Malformed(description: "unknown resolution \(raw)")
            }
            record = .resolved(sequence: sequence, resolution: resolution)
        case nil:
            throw JournalReader.Malformed(description: "unknown record type \(type)")
        }
        guard reader.isAtEnd else { throw JournalReader.Malformed(description: "extra bytes after the record") }
        return record
    }

    // MARK: - Jobs

    private static func encode(_ job: StoredJob, into writer: inout JournalWriter) {
        writer.varint(job.sequence)
        writer.string(job.id)
        writer.string(job.kind)
        writer.byteArray(job.payload)
        writer.date(job.submittedAt)
        writer.optionalDate(job.eligibleAt)
        writer.optionalDate(job.startDeadlineAt)
        writer.optionalDuration(job.runTimeout)
        writer.varint(job.requirements.rawValue)
        writer.strings(job.conditions.map(\.name).sorted())
        writer.byte(priorityCode(job.priority))
        encode(job.retry, into: &writer)
        writer.byte(job.onRequirementsLost == .keepRunning ? 0 : 1)
        writer.optionalString(job.uniqueKey)
        writer.byte(job.onDuplicate == .keepExisting ? 0 : 1)
        writer.optionalString(job.serialGroup)
        writer.strings(job.tags.sorted())
        writer.int(job.failures)
        writer.int(job.lastStartedAttempt)
        writer.bool(job.isRunning)
        writer.optionalDate(job.retryAt)
    }

    private static func decodeJob(_ reader: inout JournalReader) throws -> StoredJob {
        var job = StoredJob(
            sequence: try reader.varint(),
            id: try reader.string(),
            kind: try reader.string(),
            payload: Data(try reader.byteArray()),
            submittedAt: try reader.date(),
            eligibleAt: try reader.optionalDate(),
            startDeadlineAt: try reader.optionalDate(),
            runTimeout: try reader.optionalDuration(),
            requirements: SyncRequirements(rawValue: try reader.varint()),
            conditions: Set(try reader.strings().map { SyncCondition($0) }),
            priority: try priority(try reader.byte()),
            retry: try decodeRetry(&reader),
            onRequirementsLost: try reader.byte() == 0 ? .keepRunning : .cancelAndRequeue,
            uniqueKey: try reader.optionalString(),
            onDuplicate: try reader.byte() == 0 ? .keepExisting : .replace,
            serialGroup: try reader.optionalString(),
            tags: Set(try reader.strings())
        )
        job.failures = try reader.int()
        job.lastStartedAttempt = try reader.int()
        job.isRunning = try reader.bool()
        job.retryAt = try reader.optionalDate()
        return job
    }

    private static func encode(_ retry: RetryPolicy, into writer: inout JournalWriter) {
        switch retry.backoff {
        case .fixed(let delay):
            writer.byte(0)
            writer.duration(delay)
        case .exponential(let initial, let multiplier, let maxDelay):
            writer.byte(1)
            writer.duration(initial)
            writer.double(multiplier)
            writer.duration(maxDelay)
        }
        writer.int(retry.maxAttempts)
        writer.double(retry.jitter)
        writer.bool(retry.resetWhenRequirementsReturn)
    }

    private static func decodeRetry(_ reader: inout JournalReader) throws -> RetryPolicy {
        let backoff: RetryPolicy.Backoff
        switch try reader.byte() {
        case 0: backoff = .fixed(try reader.duration())
        case 1:
            backoff = .exponential(
                initial: try reader.duration(), multiplier: try reader.double(), maxDelay: try reader.duration())
        case let other: throw JournalReader.Malformed(description: "unknown backoff \(other)")
        }
        return RetryPolicy(
            backoff: backoff,
            maxAttempts: try reader.int(),
            jitter: try reader.double(),
            resetWhenRequirementsReturn: try reader.bool()
        )
    }

    private static func priorityCode(_ priority: SyncJobPriority) -> UInt8 {
        switch priority {
        case .low: 0
        case .normal: 1
        case .high: 2
        }
    }

    private static func priority(_ code: UInt8) throws -> SyncJobPriority {
        switch code {
        case 0: return .low
        case 1: return .normal
        case 2: return .high
        default: throw JournalReader.Malformed(description: "unknown priority \(code)")
        }
    }
}
