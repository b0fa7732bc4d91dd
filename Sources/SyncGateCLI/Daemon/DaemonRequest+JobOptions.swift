import Foundation
import SyncGateCore

extension DaemonRequest.Submission {
    /// The job options the submission asks for, checked as the scheduler checks them.
    ///
    /// The one translation from the command line's fields to `SyncJobOptions`: `submit` runs it before it
    /// asks the daemon (so every mistake exits 2 on the command line), and the daemon runs it again on
    /// what it receives. A refusal of the scheduler's names the option it comes from
    /// (``option(forField:)``).
    package func jobOptions() throws(UsageError) -> SyncJobOptions {
        var options = SyncJobOptions(requires: try RequirementListParser.parse(require, option: "--require"))
        options.conditions = Set(conditions.map { SyncCondition($0) })
        options.tags = Set(tags)
        options.uniqueKey = uniqueKey
        switch onDuplicate ?? "keep" {
        case "keep": options.onDuplicate = .keepExisting
        case "replace": options.onDuplicate = .replace
        case "append": options.onDuplicate = .append
        case let other:
            throw UsageError("invalid policy '\(other)' for --on-duplicate: expected keep, replace or append")
        }
        func duration(_ text: String?, _ option: String) throws(UsageError) -> Duration? {
            guard let text else { return nil }
            return try DurationParser.parse(text, option: option)
        }
        options.delay = try duration(delay, "--delay")
        options.startDeadline = try duration(deadline, "--deadline")
        options.runTimeout = try duration(timeout, "--timeout")
        let backoff = try duration(self.backoff, "--backoff") ?? .seconds(1)
        if retries > 0 {
            options.retry =
                backoff == .zero
                ? .fixed(delay: .zero, maxAttempts: retries + 1)
                : .exponential(
                    initial: backoff, multiplier: 2, maxDelay: backoff * 32, maxAttempts: retries + 1, jitter: 0)
        }
        if let period = try periodDurations(everyOption: "--every", flexOption: "--flex") {
            options.period = SyncJobPeriod(every: period.every, flex: period.flex)
        }
        if let trigger = try fileTriggerFields() {
            options.fileTrigger = SyncFileTrigger(paths: trigger.paths, quietPeriod: trigger.quiet)
        }
        if let calendar = try calendarFields() {
            options.calendar = SyncCalendarSchedule(
                weekdays: Set(calendar.spec.weekdays.compactMap(SyncCalendarSchedule.Weekday.init(rawValue:))),
                hours: calendar.spec.hours, minutes: calendar.spec.minutes, seconds: calendar.spec.seconds,
                timeZone: calendar.spec.timeZone.flatMap(TimeZone.init(identifier:)), window: calendar.window,
                randomizedDelay: calendar.randomizedDelay, catchUp: calendar.catchUpOnce ? .catchUpOnce : .skip)
        }
        options.relaxations = try RelaxationParser.parseAll(
            relax ?? [], option: "--relax", requirements: options.requirements, conditions: options.conditions)
        options.onRequirementsLost = stopOnLoss ? .cancelAndRequeue : .keepRunning
        if let network {
            options.allowedNetworks = try ParsedArguments.allowedNetworks(network, option: "--network")
        }
        if let refusal = options.validationError {
            throw UsageError("invalid job for \(Self.option(forField: refusal.field)): \(refusal.reason)")
        }
        return options
    }

    /// The command-line option that sets a `SyncJobOptions` field (the first of them, for a field that
    /// several set).
    package static func option(forField field: String) -> String {
        let root = field.split(separator: ".").first.map(String.init) ?? field
        return switch root {
        case "conditions": "--condition"
        case "delay": "--delay"
        case "startDeadline": "--deadline"
        case "runTimeout": "--timeout"
        case "retry": "--retries"
        case "uniqueKey": "--unique"
        case "onDuplicate": "--on-duplicate"
        case "tags": "--tag"
        case "relaxations": "--relax"
        case "allowedNetworks": "--network"
        case "calendar": "--on-calendar"
        case "period": "--every"
        case "fileTrigger": "--on-change"
        default: "--\(root)"
        }
    }
}
