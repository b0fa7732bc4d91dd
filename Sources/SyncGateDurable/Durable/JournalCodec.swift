import Foundation
import SyncGateCore

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
    ///
    /// Version 2 added the periodic, chain and append options (``JournalCodec`` + Options), a periodic
    /// job's series (its anchor and counts) in a job's record, and the `periodEnded` record. Version 3
    /// added the `dependencyEnded` record (a dependency's result and output) and a job's dependency
    /// results in its record: a version 2 reader would skip such a record as unreadable and lose the
    /// output, so it must refuse the file instead. Version 4 added the `attemptStopped` record (a stop
    /// reason) and a job's last stop reason in its record. Version 5 appends a job's relaxations and its
    /// calendar schedule to its options; a calendar job's `periodEnded` record (and the anchor in its
    /// record) holds the latest occurrence that ran or was skipped. Version 6 appends a job's allowed
    /// networks to its options. Version 7 appends a job's file trigger to its options; a file-triggered
    /// job's `periodEnded` record holds its run's start. Version 8 added the `calendarReplanned` record (a
    /// calendar series planned again from a wall clock set back before its span) and a calendar job's
    /// held span in its record.
    static let currentVersion = 8
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
    /// Bodies longer than this are taken as corruption, and never written: the largest payload a durable
    /// job may have, plus room for its other fields.
    static let maximumBodyLength = DurableScheduler.maximumPayloadSize + (1 << 20)

    private enum RecordType: UInt8 {
        case submitted = 1
        case attemptStarted = 2
        case attemptFinished = 3
        case resolved = 4
        /// From version 2.
        case periodEnded = 5
        /// From version 3.
        case dependencyEnded = 6
        /// From version 4.
        case attemptStopped = 7
        /// From version 8.
        case calendarReplanned = 8
    }

    /// The record as a complete frame.
    static func frame(_ record: JobRecord) -> [UInt8] {
        frame(body: encode(record))
    }

    /// An encoded body as a complete frame.
    static func frame(body: [UInt8]) -> [UInt8] {
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
        case .periodEnded(let sequence, let anchor, let periods):
            writer.byte(RecordType.periodEnded.rawValue)
            writer.varint(sequence)
            writer.date(anchor)
            encode(periods, into: &writer)
        case .dependencyEnded(let sequence, let result):
            writer.byte(RecordType.dependencyEnded.rawValue)
            writer.varint(sequence)
            encode(result, into: &writer)
        case .attemptStopped(let sequence, let reason):
            writer.byte(RecordType.attemptStopped.rawValue)
            writer.varint(sequence)
            encode(reason, into: &writer)
        case .calendarReplanned(let sequence, let anchor, let periods, let heldSpan):
            writer.byte(RecordType.calendarReplanned.rawValue)
            writer.varint(sequence)
            writer.date(anchor)
            encode(periods, into: &writer)
            encode(heldSpan, into: &writer)
        }
        return writer.bytes
    }

    /// Decodes a record body with the decoder of the file's format version.
    static func decode(_ body: UnsafeRawBufferPointer, version: Int) throws -> JobRecord {
        switch version {
        case 1, 2, 3, 4, 5, 6, 7, 8: return try decodeRecord(body, version: version)
        default: throw JournalReader.Malformed(description: "no decoder for journal format version \(version)")
        }
    }

    /// Version 1, the first format; version 2, which appends the new options and a series' state to a
    /// job's record and adds the `periodEnded` record; version 3, which appends the dependency results
    /// to a job's record and adds the `dependencyEnded` record; version 4, which appends the last stop
    /// reason to a job's record and adds the `attemptStopped` record; version 5, which appends the
    /// relaxations and the calendar schedule to a job's options; version 6, which appends the allowed
    /// networks to a job's options; version 7, which appends the file trigger to a job's options; version
    /// 8, which appends a calendar job's held span to a job's record and adds the `calendarReplanned`
    /// record.
    private static func decodeRecord(_ body: UnsafeRawBufferPointer, version: Int) throws -> JobRecord {
        var reader = JournalReader(body)
        let type = try reader.byte()
        let record: JobRecord
        switch RecordType(rawValue: type) {
        case .submitted:
            record = .submitted(try decodeJob(&reader, version: version))
        case .attemptStarted:
            record = .attemptStarted(sequence: try decodeSequence(&reader), attempt: try reader.int())
        case .attemptFinished:
            record = .attemptFinished(
                sequence: try decodeSequence(&reader), failures: try reader.int(), retryAt: try reader.optionalDate())
        case .resolved:
            let sequence = try decodeSequence(&reader)
            let raw = try reader.byte()
            guard let resolution = JobRecord.Resolution(rawValue: raw) else {
                throw JournalReader.Malformed(description: "unknown resolution \(raw)")
            }
            record = .resolved(sequence: sequence, resolution: resolution)
        case .periodEnded where version >= 2:
            record = .periodEnded(
                sequence: try decodeSequence(&reader), anchor: try reader.date(), periods: try decodePeriods(&reader))
        case .dependencyEnded where version >= 3:
            record = .dependencyEnded(sequence: try decodeSequence(&reader), result: try decodeResult(&reader))
        case .attemptStopped where version >= 4:
            record = .attemptStopped(sequence: try decodeSequence(&reader), reason: try decodeStopReason(&reader))
        case .calendarReplanned where version >= 8:
            record = .calendarReplanned(
                sequence: try decodeSequence(&reader), anchor: try reader.date(), periods: try decodePeriods(&reader),
                heldSpan: try decodeSpan(&reader))
        case .periodEnded, .dependencyEnded, .attemptStopped, .calendarReplanned, nil:
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
        encode(job.options, submittedAt: job.submittedAt, into: &writer)
        writer.int(job.failures)
        writer.int(job.lastStartedAttempt)
        writer.bool(job.isRunning)
        writer.optionalDate(job.retryAt)
        writer.optionalDate(job.periodAnchor)
        writer.bool(job.periods != nil)
        if let periods = job.periods { encode(periods, into: &writer) }
        writer.varint(UInt64(job.dependencyResults.count))
        for result in job.dependencyResults { encode(result, into: &writer) }
        writer.bool(job.lastStopReason != nil)
        if let reason = job.lastStopReason { encode(reason, into: &writer) }
        writer.bool(job.calendarHeldSpan != nil)
        if let span = job.calendarHeldSpan { encode(span, into: &writer) }
    }

    /// A span of instants: its two ends.
    private static func encode(_ span: ClosedRange<Date>, into writer: inout JournalWriter) {
        writer.date(span.lowerBound)
        writer.date(span.upperBound)
    }

    /// A span of instants; ends out of order or not a number are malformed. (The seconds are compared, not
    /// the dates: `Date`'s `<=` reads `true` for NaN.)
    private static func decodeSpan(_ reader: inout JournalReader) throws -> ClosedRange<Date> {
        let lower = try reader.date().timeIntervalSince1970
        let upper = try reader.date().timeIntervalSince1970
        guard lower <= upper else {
            throw JournalReader.Malformed(
                description: "a span from \(lower) to \(upper) seconds since 1970 is not a span")
        }
        return Date(timeIntervalSince1970: lower)...Date(timeIntervalSince1970: upper)
    }

    /// A stop reason: a tag byte (1 cancelled, 2 requirements lost, 3 timed out, 4 replaced, 5 shutdown);
    /// a loss follows with its requirements' raw value and its conditions' names, sorted.
    private static func encode(_ reason: SyncJobStopReason, into writer: inout JournalWriter) {
        switch reason {
        case .cancelled: writer.byte(1)
        case .requirementsLost(let requirements, let conditions):
            writer.byte(2)
            writer.varint(requirements.rawValue)
            writer.varint(UInt64(conditions.count))
            for name in conditions.map(\.name).sorted() { writer.string(name) }
        case .timedOut: writer.byte(3)
        case .replaced: writer.byte(4)
        case .shutdown: writer.byte(5)
        }
    }

    private static func decodeStopReason(_ reader: inout JournalReader) throws -> SyncJobStopReason {
        let tag = try reader.byte()
        switch tag {
        case 1: return .cancelled
        case 2:
            let requirements = SyncRequirements(rawValue: try reader.varint())
            let count = try reader.varint()
            // Each name takes at least one byte: a count past the body's end is corruption.
            guard count <= UInt64(reader.remaining) else {
                throw JournalReader.Malformed(description: "\(count) lost conditions in a short record")
            }
            var conditions: Set<SyncCondition> = []
            for _ in 0..<count { conditions.insert(SyncCondition(try reader.string())) }
            return .requirementsLost(requirements, conditions: conditions)
        case 3: return .timedOut
        case 4: return .replaced
        case 5: return .shutdown
        default: throw JournalReader.Malformed(description: "unknown stop reason \(tag)")
        }
    }

    private static func encode(_ result: StoredJob.DependencyResult, into writer: inout JournalWriter) {
        writer.string(result.id)
        writer.byte(result.resolution.rawValue)
        writer.bool(result.output != nil)
        if let output = result.output { writer.byteArray(Array(output)) }
        writer.optionalString(result.ancestor)
        writer.string(result.detail)
    }

    private static func decodeResult(_ reader: inout JournalReader) throws -> StoredJob.DependencyResult {
        let id = try reader.string()
        let raw = try reader.byte()
        guard let resolution = JobRecord.Resolution(rawValue: raw) else {
            throw JournalReader.Malformed(description: "unknown resolution \(raw)")
        }
        let output = try reader.bool() ? Data(try reader.byteArray()) : nil
        let ancestor = try reader.optionalString()
        return StoredJob.DependencyResult(
            id: id, resolution: resolution, output: output, ancestor: ancestor, detail: try reader.string())
    }

    private static func encode(_ periods: SyncJobInfo.Periods, into writer: inout JournalWriter) {
        writer.int(periods.succeeded)
        writer.int(periods.failed)
        writer.int(periods.skipped)
    }

    private static func decodePeriods(_ reader: inout JournalReader) throws -> SyncJobInfo.Periods {
        SyncJobInfo.Periods(succeeded: try reader.int(), failed: try reader.int(), skipped: try reader.int())
    }

    /// A record's sequence number: at most ``DurableScheduler/maximumSequence``, which the scheduler never
    /// exceeds; a higher one is malformed.
    private static func decodeSequence(_ reader: inout JournalReader) throws -> UInt64 {
        let sequence = try reader.varint()
        guard sequence <= DurableScheduler.maximumSequence else {
            throw JournalReader.Malformed(
                description: "sequence number \(sequence) is above the limit \(DurableScheduler.maximumSequence)")
        }
        return sequence
    }

    private static func decodeJob(_ reader: inout JournalReader, version: Int) throws -> StoredJob {
        let sequence = try decodeSequence(&reader)
        let id = try reader.string()
        let kind = try reader.string()
        let payload = Data(try reader.byteArray())
        let submittedAt = try reader.date()
        var job = StoredJob(
            sequence: sequence, id: id, kind: kind, payload: payload, submittedAt: submittedAt,
            options: try decodeOptions(&reader, submittedAt: submittedAt, version: version))
        job.failures = try reader.int()
        job.lastStartedAttempt = try reader.int()
        job.isRunning = try reader.bool()
        job.retryAt = try reader.optionalDate()
        if version >= 2 {
            job.periodAnchor = try reader.optionalDate()
            job.periods = try reader.bool() ? try decodePeriods(&reader) : nil
        }
        if version >= 3 {
            let count = try reader.varint()
            // Each result takes at least five bytes: a count past the body's end is corruption.
            guard count <= UInt64(reader.remaining) else {
                throw JournalReader.Malformed(description: "\(count) dependency results in a short record")
            }
            for _ in 0..<count { job.dependencyResults.append(try decodeResult(&reader)) }
        }
        if version >= 4 {
            job.lastStopReason = try reader.bool() ? try decodeStopReason(&reader) : nil
        }
        if version >= 8 {
            job.calendarHeldSpan = try reader.bool() ? try decodeSpan(&reader) : nil
        }
        return job
    }
}
