import Foundation

/// Appends the journal's primitive values to a byte buffer: LEB128 varints, zigzag integers, strings.
struct JournalWriter {
    /// The bytes written so far.
    private(set) var bytes: [UInt8] = []

    mutating func byte(_ value: UInt8) {
        bytes.append(value)
    }

    mutating func uint32(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> shift)) }
    }

    mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    mutating func int(_ value: Int64) {
        varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    mutating func int(_ value: Int) {
        int(Int64(value))
    }

    mutating func bool(_ value: Bool) {
        bytes.append(value ? 1 : 0)
    }

    mutating func double(_ value: Double) {
        varint(value.bitPattern)
    }

    mutating func byteArray(_ value: some Collection<UInt8>) {
        varint(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    mutating func string(_ value: String) {
        byteArray(Array(value.utf8))
    }

    mutating func optionalString(_ value: String?) {
        bool(value != nil)
        if let value { string(value) }
    }

    mutating func strings(_ values: [String]) {
        varint(UInt64(values.count))
        for value in values { string(value) }
    }

    /// Writes `value` as its seconds and attoseconds, both with the same sign; a duration beyond
    /// `±.seconds(Int64.max)`, whose seconds are no `Int64`, is written as that bound.
    mutating func duration(_ value: Duration) {
        let bound = Duration.seconds(Int64.max)
        let components = min(max(value, .zero - bound), bound).components
        int(components.seconds)
        int(components.attoseconds)
    }

    mutating func optionalDuration(_ value: Duration?) {
        bool(value != nil)
        if let value { duration(value) }
    }

    mutating func date(_ value: Date) {
        double(value.timeIntervalSince1970)
    }

    mutating func optionalDate(_ value: Date?) {
        bool(value != nil)
        if let value { date(value) }
    }
}

/// Reads what ``JournalWriter`` wrote; every read past the end or of a malformed value throws.
struct JournalReader {
    /// Why a record body could not be read.
    struct Malformed: Error, CustomStringConvertible {
        let description: String
    }

    private let buffer: UnsafeRawBufferPointer
    private(set) var offset = 0

    init(_ bytes: UnsafeRawBufferPointer) {
        self.buffer = bytes
    }

    var isAtEnd: Bool { offset == buffer.count }

    /// The number of bytes left to read.
    var remaining: Int { buffer.count - offset }

    mutating func byte() throws -> UInt8 {
        guard offset < buffer.count else { throw Malformed(description: "record ends early at byte \(offset)") }
        defer { offset += 1 }
        return buffer[offset]
    }

    mutating func varint() throws -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let next = try byte()
            guard shift < 64 else { throw Malformed(description: "varint too long at byte \(offset)") }
            result |= UInt64(next & 0x7F) << shift
            if next & 0x80 == 0 { return result }
            shift += 7
        }
    }

    mutating func int64() throws -> Int64 {
        let raw = try varint()
        return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
    }

    mutating func int() throws -> Int {
        let value = try int64()
        guard let result = Int(exactly: value) else { throw Malformed(description: "integer \(value) out of range") }
        return result
    }

    mutating func bool() throws -> Bool {
        switch try byte() {
        case 0: return false
        case 1: return true
        case let other: throw Malformed(description: "invalid flag \(other) at byte \(offset - 1)")
        }
    }

    mutating func double() throws -> Double {
        Double(bitPattern: try varint())
    }

    mutating func byteArray() throws -> [UInt8] {
        let count = try varint()
        guard count <= UInt64(buffer.count - offset) else {
            throw Malformed(description: "length \(count) at byte \(offset) runs past the record")
        }
        defer { offset += Int(count) }
        return Array(buffer[offset..<offset + Int(count)])
    }

    mutating func string() throws -> String {
        let raw = try byteArray()
        guard let value = String(validating: raw, as: UTF8.self) else {
            throw Malformed(description: "invalid UTF-8 string before byte \(offset)")
        }
        return value
    }

    mutating func optionalString() throws -> String? {
        try bool() ? try string() : nil
    }

    mutating func strings() throws -> [String] {
        let count = try varint()
        guard count <= UInt64(buffer.count - offset) else {
            throw Malformed(description: "list count \(count) too big")
        }
        return try (0..<count).map { _ in try string() }
    }

    /// Reads a duration as ``JournalWriter/duration(_:)`` writes it: attoseconds of less than a second,
    /// of the seconds' sign (or either being zero); any other pair is malformed, so that a duration read
    /// is always one whose components are `Int64`s and that writes again as it was read.
    mutating func duration() throws -> Duration {
        let start = offset
        let seconds = try int64()
        let attoseconds = try int64()
        guard attoseconds.magnitude < 1_000_000_000_000_000_000,
            seconds == 0 || attoseconds == 0 || (seconds < 0) == (attoseconds < 0)
        else {
            throw Malformed(
                description: "invalid duration of \(seconds) seconds and \(attoseconds) attoseconds at byte \(start)")
        }
        return Duration(secondsComponent: seconds, attosecondsComponent: attoseconds)
    }

    mutating func optionalDuration() throws -> Duration? {
        try bool() ? try duration() : nil
    }

    mutating func date() throws -> Date {
        Date(timeIntervalSince1970: try double())
    }

    mutating func optionalDate() throws -> Date? {
        try bool() ? try date() : nil
    }
}
