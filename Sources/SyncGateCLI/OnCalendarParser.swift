import Foundation

/// Reads the `--on-calendar` expressions of `syncgate submit`: a subset of systemd's `OnCalendar=`
/// syntax (systemd.time(7), "Calendar Events").
///
/// An expression is `[WEEKDAYS] [*-*-*] HOURS:MINUTES[:SECONDS] [TIME-ZONE]`, or one of the shorthands
/// `hourly` (`*-*-* *:00:00`), `daily` (`*-*-* 00:00:00`) and `weekly` (`Mon *-*-* 00:00:00`), each
/// optionally followed by a TIME-ZONE (`daily Europe/Berlin`):
///
/// * WEEKDAYS: English day names, three letters or in full, any case, separated by commas, with ranges
///   `Mon..Fri`; absent for every day;
/// * the date: only `*-*-*` (every day); a specific year, month or day is refused;
/// * HOURS (0–23), MINUTES and SECONDS (0–59): each `*`, a number, a range `A..B`, a repetition `A/STEP`
///   or `*/STEP` (from A, every STEP up to the field's end), or a comma-separated list of these; SECONDS
///   defaults to 0;
/// * TIME-ZONE: an IANA zone name (`Europe/Berlin`, `UTC`); absent for the system's.
///
/// Anything else is refused with a ``UsageError`` naming the field and the value. Standard library and
/// Foundation only: the daemon's request decoder (fuzzed) reads the expression with it.
package enum OnCalendarParser {
    /// A parsed expression.
    package struct Spec: Sendable, Equatable {
        /// ISO weekday numbers (Monday 1 … Sunday 7); empty for every day.
        package var weekdays: Set<Int>
        /// The hours of the local times.
        package var hours: Set<Int>
        /// The minutes of the local times.
        package var minutes: Set<Int>
        /// The seconds of the local times.
        package var seconds: Set<Int>
        /// The IANA time zone name, or `nil` for the system's.
        package var timeZone: String?

        /// Creates a parsed expression.
        package init(
            weekdays: Set<Int> = [], hours: Set<Int> = [], minutes: Set<Int> = [], seconds: Set<Int> = [0],
            timeZone: String? = nil
        ) {
            self.weekdays = weekdays
            self.hours = hours
            self.minutes = minutes
            self.seconds = seconds
            self.timeZone = timeZone
        }
    }

    static let dayNames = [
        ("mon", "monday"), ("tue", "tuesday"), ("wed", "wednesday"), ("thu", "thursday"), ("fri", "friday"),
        ("sat", "saturday"), ("sun", "sunday"),
    ]

    /// Whether `name` is an IANA time zone this machine knows.
    package static func isKnownTimeZone(_ name: String) -> Bool {
        TimeZone(identifier: name) != nil
    }

    /// Parses `text`, naming `option` in errors.
    package static func parse(_ text: String, option: String = "--on-calendar") throws(UsageError) -> Spec {
        // Both the value and the expression are shown escaped and cut short, so the message is one line.
        func fail(_ field: String, _ value: Substring, _ expected: String) -> UsageError {
            let expression = DaemonLimits.shown(text)
            return UsageError(
                "invalid \(field) '\(DaemonLimits.shown(String(value)))' in \(option) '\(expression)': \(expected)")
        }
        let shorthand: [String: String] = [
            "hourly": "*-*-* *:00:00", "daily": "*-*-* 00:00:00", "weekly": "Mon *-*-* 00:00:00",
        ]
        var tokens = text.split(separator: " ", omittingEmptySubsequences: true)
        if let first = tokens.first, let long = shorthand[first.lowercased()] {
            guard tokens.count <= 2 else {
                throw fail("expression", Substring(text), "expected \(first) [TIME-ZONE]")
            }
            if tokens.count == 2 && !isKnownTimeZone(String(tokens[1])) {
                throw fail("time zone", tokens[1], "expected an IANA time zone after \(first)")
            }
            tokens = long.split(separator: " ") + tokens.dropFirst()
        }
        guard !tokens.isEmpty else { throw UsageError("empty expression for \(option)") }
        guard tokens.count <= 4 else {
            throw fail("expression", Substring(text), "expected [WEEKDAYS] [*-*-*] HH:MM[:SS] [TIME-ZONE]")
        }
        var spec = Spec()
        // A last word without `:` after a time is the time zone: `02:00 Europe/Berlin`, `02:00 Japan`, `02:00 GMT`.
        // A zone's name has letters; a word of digits, `*` and `/` alone (`*/5`) is a time missing its `:`.
        if let last = tokens.last, !last.contains(":"), last.contains(where: \.isLetter),
            last.contains("/") || last.uppercased() == "UTC" || tokens.dropLast().last?.contains(":") == true
        {
            guard isKnownTimeZone(String(last)) else {
                throw fail("time zone", last, "not a known IANA time zone")
            }
            spec.timeZone = String(last)
            tokens.removeLast()
        }
        guard let time = tokens.last, time.contains(":") else {
            // A date with no time after it (`2026-12-24`, `*-*-*`): the time is what is missing.
            if let date = tokens.last, date.contains("-") {
                let expected =
                    date == "*-*-*"
                    ? "expected a time HH:MM[:SS] after it" : "only *-*-* (every day) is supported, then HH:MM[:SS]"
                throw fail("date", date, expected)
            }
            throw fail("time", tokens.last ?? Substring(text), "expected HH:MM or HH:MM:SS")
        }
        tokens.removeLast()
        if let date = tokens.last, date.contains("-") {
            guard date == "*-*-*" else { throw fail("date", date, "only *-*-* (every day) is supported") }
            tokens.removeLast()
        }
        if let days = tokens.first {
            tokens.removeFirst()
            spec.weekdays = try weekdays(days, fail: fail)
        }
        if let extra = tokens.first { throw fail("field", extra, "expected [WEEKDAYS] [*-*-*] HH:MM[:SS]") }
        let parts = time.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3 else { throw fail("time", time, "expected HH:MM or HH:MM:SS") }
        spec.hours = try values(parts[0], range: 0...23, field: "hour", fail: fail)
        spec.minutes = try values(parts[1], range: 0...59, field: "minute", fail: fail)
        if parts.count == 3 { spec.seconds = try values(parts[2], range: 0...59, field: "second", fail: fail) }
        return spec
    }

    private static func weekdays(
        _ text: Substring, fail: (String, Substring, String) -> UsageError
    ) throws(UsageError) -> Set<Int> {
        func day(_ name: Substring) throws(UsageError) -> Int {
            let lower = name.lowercased()
            guard let index = dayNames.firstIndex(where: { $0.0 == lower || $0.1 == lower }) else {
                throw fail("weekday", name, "expected Mon, Tue, Wed, Thu, Fri, Sat or Sun")
            }
            return index + 1
        }
        var days: Set<Int> = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            if let range = item.range(of: "..") {
                let first = try day(item[..<range.lowerBound])
                let last = try day(item[range.upperBound...])
                guard first <= last else { throw fail("weekday range", item, "the first day must come first") }
                days.formUnion(first...last)
            } else {
                days.insert(try day(item))
            }
        }
        return days
    }

    private static func values(
        _ text: Substring, range: ClosedRange<Int>, field: String, fail: (String, Substring, String) -> UsageError
    ) throws(UsageError) -> Set<Int> {
        let expected = "expected *, a number from \(range.lowerBound) to \(range.upperBound), A..B, A/STEP or a list"
        func number(_ digits: Substring) throws(UsageError) -> Int {
            guard !digits.isEmpty, digits.count <= 2, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
                let value = Int(digits), range.contains(value)
            else { throw fail(field, digits, expected) }
            return value
        }
        var result: Set<Int> = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            if item == "*" {
                result.formUnion(range)
            } else if let slash = item.firstIndex(of: "/") {
                let start = item[..<slash] == "*" ? range.lowerBound : try number(item[..<slash])
                let stepText = item[item.index(after: slash)...]
                guard let step = Int(stepText), step > 0, step <= range.upperBound else {
                    throw fail("\(field) step", stepText, "expected a step from 1 to \(range.upperBound)")
                }
                result.formUnion(stride(from: start, through: range.upperBound, by: step))
            } else if let dots = item.range(of: "..") {
                let first = try number(item[..<dots.lowerBound])
                let last = try number(item[dots.upperBound...])
                guard first <= last else { throw fail("\(field) range", item, "the first value must come first") }
                result.formUnion(first...last)
            } else {
                result.insert(try number(item))
            }
        }
        return result
    }
}
