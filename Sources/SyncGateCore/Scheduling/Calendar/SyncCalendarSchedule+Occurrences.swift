import Foundation

/// The pure arithmetic of a calendar schedule: its occurrences as instants, given a time zone.
///
/// Instants are whole seconds since 1970-01-01 00:00:00 UTC; local times are the same count of the
/// zone's wall-clock reading. Nothing here reads a clock.
extension SyncCalendarSchedule {
    /// The first occurrence strictly after `instant`, in `zone` (the schedule's ``timeZone`` is not
    /// consulted: the caller resolves it, so the system's zone can be injected).
    ///
    /// A local time maps to the first instant at which the zone's clock shows it. A local time inside a
    /// gap (spring forward) maps to the first instant after the gap, so the times of one gap run once,
    /// together. A local time a fall-back repeats maps to its first pass only: it runs once.
    ///
    /// - Returns: the occurrence, or `nil` when the schedule is invalid (``SyncJobOptions/calendar``'s
    ///   rules), when it has none within the next eight days, or when `instant` is more than
    ///   ``supportedSeconds`` from 1970 (about 35 million years) or not finite.
    public func nextOccurrence(after instant: Date, in zone: TimeZone) -> Date? {
        guard validationError == nil else { return nil }
        let seconds = instant.timeIntervalSince1970.rounded(.down)
        guard seconds.isFinite, abs(seconds) <= Double(Self.supportedSeconds) else { return nil }
        return nextOccurrence(afterSecond: Self.clampedSecond(of: instant), in: zone).map {
            Date(timeIntervalSince1970: Double($0))
        }
    }

    /// How far from 1970, in seconds either way, occurrences are computed (2^50 s, about 35 million
    /// years): the arithmetic on days and seconds stays far from `Int64`'s limits.
    public static let supportedSeconds: Int64 = 1 << 50

    /// `date` in whole seconds since 1970 (rounded down), within ``supportedSeconds`` either way; NaN is
    /// 1970. Never traps, whatever the date.
    static func clampedSecond(of date: Date) -> Int64 {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        let bound = Double(supportedSeconds)
        return seconds.isNaN ? 0 : Int64(min(max(seconds, -bound), bound))
    }

    /// ``nextOccurrence(after:in:)`` on whole seconds.
    func nextOccurrence(afterSecond after: Int64, in zone: TimeZone) -> Int64? {
        guard (-Self.supportedSeconds...Self.supportedSeconds).contains(after) else { return nil }
        // A local time L runs at an instant u > after only if L = u + offset(u) > after + offset(u): no
        // earlier local time than `after` plus the smaller offset of now and two days on can (one offset
        // change at most in two days; the answer lies within a day unless days are left out).
        let bound = after + Int64(min(Self.offset(zone, at: after), Self.offset(zone, at: after + 2 * 86_400)))
        let today = Self.floorDiv(bound, 86_400)
        let sortedHours = hours.sorted()
        let sortedMinutes = minutes.sorted()
        let sortedSeconds = seconds.sorted()
        for day in today...(today + 8) {
            if !weekdays.isEmpty, !weekdays.contains(Self.weekday(ofDay: day)) { continue }
            for hour in sortedHours {
                let hourStart = day * 86_400 + Int64(hour) * 3_600
                if hourStart + 3_599 <= bound { continue }
                for minute in sortedMinutes {
                    let minuteStart = hourStart + Int64(minute) * 60
                    if minuteStart + 59 <= bound { continue }
                    for second in sortedSeconds {
                        let local = minuteStart + Int64(second)
                        if local <= bound { continue }
                        let occurrence = Self.firstInstant(showing: local, in: zone)
                        if occurrence > after { return occurrence }
                    }
                }
            }
        }
        return nil
    }

    /// The occurrences strictly after `start` up to and including `end`: how many, and the latest.
    ///
    /// Costs about as much whatever the gap: the first ``exactlyCountedOccurrences`` are counted one by
    /// one; beyond them the latest is found by bisection on ``nextOccurrence(afterSecond:in:)``, and the
    /// rest are counted from the local times in between (``localTimes(afterLocal:throughLocal:)``), so
    /// the count is then an estimate that counts each time inside a spring-forward gap as its own
    /// occurrence (at most the times of an hour too many per gap). The latest is always exact.
    func passedOccurrences(afterSecond start: Int64, through end: Int64, in zone: TimeZone) -> (
        count: Int, latest: Int64?
    ) {
        var count = 0
        var cursor = start
        while let next = nextOccurrence(afterSecond: cursor, in: zone), next <= end {
            if count == Self.exactlyCountedOccurrences {
                // Many passed: bisect for the latest. `low`'s next occurrence lies at or before `end`,
                // `high`'s after it (or there is none).
                var low = cursor
                var high = end
                while high - low > 1 {
                    let middle = low + (high - low) / 2
                    if let found = nextOccurrence(afterSecond: middle, in: zone), found <= end {
                        low = middle
                    } else {
                        high = middle
                    }
                }
                let latest = nextOccurrence(afterSecond: low, in: zone) ?? next
                let between = localTimes(
                    afterLocal: cursor + Int64(Self.offset(zone, at: cursor)),
                    throughLocal: latest + Int64(Self.offset(zone, at: latest)))
                return (count + max(between, 1), latest)
            }
            count += 1
            cursor = next
        }
        return (count, count == 0 ? nil : cursor)
    }

    /// How many occurrences ``passedOccurrences(afterSecond:through:in:)`` counts one by one before it
    /// estimates the rest.
    static var exactlyCountedOccurrences: Int { 64 }

    /// The schedule's local times (weekday, hour, minute and second in the sets) strictly after local
    /// second `start` up to and including `end`, counted by arithmetic on days; saturates at `Int.max`.
    func localTimes(afterLocal start: Int64, throughLocal end: Int64) -> Int {
        guard end > start else { return 0 }
        return Int(clamping: localTimes(throughLocal: end, fromDay: Self.floorDiv(start, 86_400)))
            - Int(clamping: localTimes(throughLocal: start, fromDay: Self.floorDiv(start, 86_400)))
    }

    /// The local times from the start of day `firstDay` up to and including local second `end`.
    private func localTimes(throughLocal end: Int64, fromDay firstDay: Int64) -> Int64 {
        let perDay = Int64(hours.count * minutes.count * seconds.count)
        let day = Self.floorDiv(end, 86_400)
        let wholeDays = day - firstDay
        let days: Int64
        if weekdays.isEmpty || weekdays.count == 7 {
            days = wholeDays
        } else {
            var counted = (wholeDays / 7) * Int64(weekdays.count)
            var extra = firstDay + (wholeDays / 7) * 7
            while extra < day {
                if weekdays.contains(Self.weekday(ofDay: extra)) { counted += 1 }
                extra += 1
            }
            days = counted
        }
        var total = days.multipliedReportingOverflow(by: perDay)
        if total.overflow { total.partialValue = Int64.max }
        guard weekdays.isEmpty || weekdays.contains(Self.weekday(ofDay: day)) else { return total.partialValue }
        let timeOfDay = Int(end - day * 86_400)
        var today = 0
        for hour in hours {
            if hour * 3_600 + 3_599 <= timeOfDay {
                today += minutes.count * seconds.count
                continue
            }
            guard hour * 3_600 <= timeOfDay else { continue }
            for minute in minutes {
                let minuteStart = hour * 3_600 + minute * 60
                if minuteStart + 59 <= timeOfDay {
                    today += seconds.count
                } else if minuteStart <= timeOfDay {
                    today += seconds.filter { minuteStart + $0 <= timeOfDay }.count
                }
            }
        }
        return total.partialValue.addingReportingOverflow(Int64(today)).overflow
            ? Int64.max : total.partialValue + Int64(today)
    }

    /// The share of ``randomizedDelay`` by which the run of the occurrence at `occurrence` is delayed:
    /// between zero and ``randomizedDelay`` inclusive, a pure function of `seed` and the occurrence.
    public func delayShare(of occurrence: Date, seed: UInt64) -> Duration {
        // Clamped, so a date beyond the supported seconds (or NaN) still draws (the same as at the limit).
        delayShare(ofSecond: Self.clampedSecond(of: occurrence), seed: seed)
    }

    /// ``delayShare(of:seed:)`` on whole seconds.
    func delayShare(ofSecond occurrence: Int64, seed: UInt64) -> Duration {
        guard randomizedDelay > .zero else { return .zero }
        // In nanoseconds, at most what an Int64 holds (about 292 years; a longer delay draws within that).
        let longest = Duration.nanoseconds(Int64.max)
        let (whole, attoseconds) = min(randomizedDelay, longest).components
        let span = min(UInt64(whole) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000), UInt64(Int64.max))
        let draw = Self.mix(seed ^ UInt64(bitPattern: occurrence)) % (span &+ 1)
        return .nanoseconds(Int64(draw))
    }

    /// A seed for ``delayShare(of:seed:)`` from a job's id: the same in every process (FNV-1a of the
    /// id's UTF-8 bytes).
    public static func seed(forJobID id: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in id.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// The first instant at which `zone`'s clock reads `local`, or, when it never does (a gap), the
    /// first instant after the gap.
    static func firstInstant(showing local: Int64, in zone: TimeZone) -> Int64 {
        // The instant lies within a day of `local`; no zone changes its offset twice within two days.
        let early = Int64(offset(zone, at: local - 86_400))
        let late = Int64(offset(zone, at: local + 86_400))
        let candidates = [local - early, local - late].sorted()
        for candidate in candidates where candidate + Int64(offset(zone, at: candidate)) == local {
            return candidate
        }
        // A gap: the transition lies between the two readings; find its first instant.
        var low = candidates[0]
        var high = candidates[1]
        let before = offset(zone, at: low)
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if offset(zone, at: middle) == before { low = middle } else { high = middle }
        }
        return high
    }

    /// The zone's offset from UTC at an instant, in seconds.
    static func offset(_ zone: TimeZone, at second: Int64) -> Int {
        zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(second)))
    }

    /// The ISO weekday of a day counted from 1970-01-01 (a Thursday).
    static func weekday(ofDay day: Int64) -> Weekday {
        let index = Int(((day % 7) + 7 + 3) % 7)
        return Weekday(rawValue: index + 1) ?? .monday
    }

    static func floorDiv(_ value: Int64, _ divisor: Int64) -> Int64 {
        value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
    }

    /// SplitMix64's finalizer: spreads every bit of the input over the output.
    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9e37_79b9_7f4a_7c15
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
