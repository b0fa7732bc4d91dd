import Foundation
import SyncGateCore

/// A job's ``SyncJobOptions`` in the journal: the one place options are encoded and decoded.
///
/// Version 1 lays them out in this order: the delay's and the start deadline's end as optional instants
/// (counted from the submission instant), the run timeout, the requirement bits, the sorted condition
/// names, the priority code, the retry policy, the requirements-lost policy, the unique key, the
/// duplicate policy, the serial group, the sorted tags. Version 2 appends the dependencies (in their
/// order) and the period (its interval and flex), and its duplicate policy code also takes `append` and
/// `appendOrReplace`. Version 5 appends the relaxations: a count, then for each a kind byte (0: a
/// requirement, its bit as a varint; 1: a condition, its name), the replacement's requirement bits and
/// the wait (a duration). The wait's start is not stored: for a one-off job it is the submission instant,
/// for a periodic or calendar job the opening of its period's window, both known from the record. Then
/// comes the calendar schedule: a presence flag, then its weekdays (ISO numbers), hours, minutes and
/// seconds as byte arrays (sorted), its time zone's identifier (absent for the system's), its window,
/// its randomized delay and its catch-up policy code (0 catch up once, 1 skip). Version 6 appends the
/// allowed networks (``encodeAllowedNetworks(_:into:)``): a presence flag, then a count and for each
/// matcher a kind byte (0 an interface pattern, 1 an interface type by its name, 2 a connection id, 3 an
/// SSID) and its value as a string; version 7 appends the file trigger (`JournalCodec+FileTrigger.swift`). A new option is a new
/// format version, with its field appended here and read by that version's decoder.
extension JournalCodec {
    static func encode(_ options: SyncJobOptions, submittedAt: Date, into writer: inout JournalWriter) {
        writer.optionalDate(options.delay.map { submittedAt.addingTimeInterval($0.inSeconds) })
        writer.optionalDate(options.startDeadline.map { submittedAt.addingTimeInterval($0.inSeconds) })
        writer.optionalDuration(options.runTimeout)
        writer.varint(options.requirements.rawValue)
        writer.strings(options.conditions.map(\.name).sorted())
        writer.byte(priorityCode(options.priority))
        encode(options.retry, into: &writer)
        writer.byte(options.onRequirementsLost == .keepRunning ? 0 : 1)
        writer.optionalString(options.uniqueKey)
        writer.byte(duplicateCode(options.onDuplicate))
        writer.optionalString(options.serialGroup)
        writer.strings(options.tags.sorted())
        writer.strings(options.dependsOn)
        writer.bool(options.period != nil)
        if let period = options.period {
            writer.duration(period.interval)
            writer.duration(period.flex)
        }
        writer.varint(UInt64(options.relaxations.count))
        for relaxation in options.relaxations {
            switch relaxation.relaxed {
            case .requirement(let requirement):
                writer.byte(0)
                writer.varint(requirement.rawValue)
            case .condition(let condition):
                writer.byte(1)
                writer.string(condition.name)
            }
            writer.varint(relaxation.replacement.rawValue)
            writer.duration(relaxation.after)
        }
        writer.bool(options.calendar != nil)
        if let calendar = options.calendar { encode(calendar, into: &writer) }
        encodeAllowedNetworks(options.allowedNetworks, into: &writer)
        encodeFileTrigger(options.fileTrigger, into: &writer)
    }

    /// The allowed networks (version 6): a presence flag, a count, then each matcher's kind byte and value.
    static func encodeAllowedNetworks(_ allowlist: SyncNetworkAllowlist?, into writer: inout JournalWriter) {
        writer.bool(allowlist != nil)
        guard let allowlist else { return }
        writer.varint(UInt64(allowlist.matchers.count))
        for matcher in allowlist.matchers {
            switch matcher {
            case .interface(let pattern):
                writer.byte(0)
                writer.string(pattern)
            case .interfaceType(let type):
                writer.byte(1)
                writer.string(type.description)
            case .connection(let id):
                writer.byte(2)
                writer.string(id)
            case .ssid(let ssid):
                writer.byte(3)
                writer.string(ssid)
            }
        }
    }

    /// The allowed networks written by ``encodeAllowedNetworks(_:into:)``.
    static func decodeAllowedNetworks(_ reader: inout JournalReader) throws -> SyncNetworkAllowlist? {
        guard try reader.bool() else { return nil }
        let count = try reader.varint()
        // Each matcher takes at least two bytes: a count past the body's end is corruption.
        guard count <= UInt64(reader.remaining) else {
            throw JournalReader.Malformed(description: "\(count) allowed networks in a short record")
        }
        let matchers: [SyncNetworkAllowlist.Matcher] = try (0..<count).map { _ in
            let kind = try reader.byte()
            let value = try reader.string()
            switch kind {
            case 0: return .interface(value)
            case 1:
                guard let type = ConnectionInterface.allCases.first(where: { $0.description == value }) else {
                    throw JournalReader.Malformed(description: "unknown interface type \(value)")
                }
                return .interfaceType(type)
            case 2: return .connection(value)
            case 3: return .ssid(value)
            default: throw JournalReader.Malformed(description: "unknown allowed-network kind \(kind)")
            }
        }
        return SyncNetworkAllowlist(matchers)
    }

    private static func encode(_ calendar: SyncCalendarSchedule, into writer: inout JournalWriter) {
        writer.byteArray(calendar.weekdays.map { UInt8($0.rawValue) }.sorted())
        for values in [calendar.hours, calendar.minutes, calendar.seconds] {
            // Valid schedules hold 0...59 only; anything else is refused before it is written.
            writer.byteArray(values.sorted().map { UInt8(clamping: $0) })
        }
        writer.optionalString(calendar.timeZone?.identifier)
        writer.duration(calendar.window)
        writer.duration(calendar.randomizedDelay)
        writer.byte(calendar.catchUp == .catchUpOnce ? 0 : 1)
    }

    private static func decodeCalendar(_ reader: inout JournalReader) throws -> SyncCalendarSchedule {
        var weekdays: Set<SyncCalendarSchedule.Weekday> = []
        for raw in try reader.byteArray() {
            guard let weekday = SyncCalendarSchedule.Weekday(rawValue: Int(raw)) else {
                throw JournalReader.Malformed(description: "unknown weekday \(raw)")
            }
            weekdays.insert(weekday)
        }
        let hours = Set(try reader.byteArray().map(Int.init))
        let minutes = Set(try reader.byteArray().map(Int.init))
        let seconds = Set(try reader.byteArray().map(Int.init))
        var zone: TimeZone?
        if let identifier = try reader.optionalString() {
            guard let named = TimeZone(identifier: identifier) else {
                throw JournalReader.Malformed(description: "unknown time zone \(identifier)")
            }
            zone = named
        }
        let window = try reader.duration()
        let randomizedDelay = try reader.duration()
        let catchUp: SyncCalendarSchedule.CatchUpPolicy
        switch try reader.byte() {
        case 0: catchUp = .catchUpOnce
        case 1: catchUp = .skip
        case let other: throw JournalReader.Malformed(description: "unknown catch-up policy \(other)")
        }
        return SyncCalendarSchedule(
            weekdays: weekdays, hours: hours, minutes: minutes, seconds: seconds, timeZone: zone, window: window,
            randomizedDelay: randomizedDelay, catchUp: catchUp)
    }

    static func decodeOptions(
        _ reader: inout JournalReader, submittedAt: Date, version: Int
    ) throws -> SyncJobOptions {
        func since(_ instant: Date?) -> Duration? {
            instant.map { Duration.saturating(seconds: $0.timeIntervalSince(submittedAt)) }
        }
        var options = SyncJobOptions()
        options.delay = since(try reader.optionalDate())
        options.startDeadline = since(try reader.optionalDate())
        options.runTimeout = try reader.optionalDuration()
        options.requirements = SyncRequirements(rawValue: try reader.varint())
        options.conditions = Set(try reader.strings().map { SyncCondition($0) })
        options.priority = try priority(try reader.byte())
        options.retry = try decodeRetry(&reader)
        options.onRequirementsLost = try reader.byte() == 0 ? .keepRunning : .cancelAndRequeue
        options.uniqueKey = try reader.optionalString()
        let duplicate = try reader.byte()
        options.onDuplicate = version >= 2 ? try duplicatePolicy(duplicate) : duplicate == 0 ? .keepExisting : .replace
        options.serialGroup = try reader.optionalString()
        options.tags = Set(try reader.strings())
        if version >= 2 {
            options.dependsOn = try reader.strings()
            if try reader.bool() {
                options.period = SyncJobPeriod(every: try reader.duration(), flex: try reader.duration())
            }
        }
        if version >= 5 {
            options.relaxations = try decodeRelaxations(&reader)
            if try reader.bool() { options.calendar = try decodeCalendar(&reader) }
        }
        if version >= 6 {
            options.allowedNetworks = try decodeAllowedNetworks(&reader)
        }
        if version >= 7 { options.fileTrigger = try decodeFileTrigger(&reader) }
        return options
    }

    private static func decodeRelaxations(_ reader: inout JournalReader) throws -> [SyncJobRelaxation] {
        let count = try reader.varint()
        // Each relaxation takes at least four bytes: a count past the body's end is corruption.
        guard count <= UInt64(reader.remaining) else {
            throw JournalReader.Malformed(description: "\(count) relaxations in a short record")
        }
        return try (0..<count).map { _ in
            let relaxed: SyncJobRelaxation.Relaxed
            switch try reader.byte() {
            case 0: relaxed = .requirement(SyncRequirements(rawValue: try reader.varint()))
            case 1: relaxed = .condition(SyncCondition(try reader.string()))
            case let other: throw JournalReader.Malformed(description: "unknown relaxation kind \(other)")
            }
            let replacement = SyncRequirements(rawValue: try reader.varint())
            return SyncJobRelaxation(relaxed, replacement: replacement, after: try reader.duration())
        }
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

    private static func duplicateCode(_ policy: DuplicatePolicy) -> UInt8 {
        switch policy {
        case .keepExisting: 0
        case .replace: 1
        case .append: 2
        case .appendOrReplace: 3
        }
    }

    private static func duplicatePolicy(_ code: UInt8) throws -> DuplicatePolicy {
        switch code {
        case 0: return .keepExisting
        case 1: return .replace
        case 2: return .append
        case 3: return .appendOrReplace
        default: throw JournalReader.Malformed(description: "unknown duplicate policy \(code)")
        }
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
