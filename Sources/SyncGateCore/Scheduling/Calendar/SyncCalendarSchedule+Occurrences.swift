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

    /// The occurrences strictly after `start` up to and including `end`, counted up to `limit`.
    func occurrences(afterSecond start: Int64, through end: Int64, in zone: TimeZone, limit: Int = 100_000) -> Int {
        var count = 0
        var cursor = start
        while count < limit, let next = nextOccurrence(afterSecond: cursor, in: zone), next <= end {
            count += 1
            cursor = next
        }
        return count
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
