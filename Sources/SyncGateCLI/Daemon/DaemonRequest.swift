/// One request of the daemon's wire format (``DaemonProtocol``): what it asks for, with the data that
/// kind of request carries.
///
/// A request read from the wire is one that passed ``DaemonRequestFields/validated()``: every field its
/// kind needs is there and every value is within ``DaemonLimits``. On the wire it is
/// ``DaemonRequestFields``, a JSON object with `version`, `type` and that kind's fields.
package enum DaemonRequest: Encodable, Sendable, Equatable {
    /// Queue a command (`syncgate submit`).
    case submit(Submission)
    /// List the jobs (`syncgate jobs`), with those that finished when `all`.
    case jobs(all: Bool)
    /// Cancel jobs (`syncgate cancel`).
    case cancel(CancelSelector)
    /// Read a job's runs and their output (`syncgate logs`); with `stream`, the runs follow the first
    /// response line as ``LogStreamLine``s instead of in it.
    case logs(id: String, stream: Bool)
    /// Set an app condition (`syncgate set-condition`).
    case setCondition(name: String, on: Bool)

    /// What a request asks for, as the wire's `type` spells it.
    package enum Kind: String, Codable, Sendable, CaseIterable {
        /// Queue a command (`syncgate submit`).
        case submit
        /// List the jobs (`syncgate jobs`).
        case jobs
        /// Cancel jobs (`syncgate cancel`).
        case cancel
        /// Read a job's runs and their output (`syncgate logs`).
        case logs
        /// Set an app condition (`syncgate set-condition`).
        case setCondition
    }

    /// The jobs a `cancel` request names.
    package enum CancelSelector: Sendable, Equatable {
        /// The job with this id.
        case id(String)
        /// Every job with this tag.
        case tag(String)
        /// The unfinished job with this unique key.
        case uniqueKey(String)

        /// The id, tag or key.
        package var value: String {
            switch self {
            case .id(let value), .tag(let value), .uniqueKey(let value): value
            }
        }

        /// Whether the selector names a job with this id, these tags and this unique key.
        package func matches(id: String, tags: Set<String>, uniqueKey: String?) -> Bool {
            switch self {
            case .id(let value): id == value
            case .tag(let value): tags.contains(value)
            case .uniqueKey(let value): uniqueKey == value
            }
        }
    }

    /// The job a `submit` request queues.
    package struct Submission: Codable, Sendable, Equatable {
        /// The command and its arguments; the first is looked up in the daemon's `PATH`.
        package var command: [String]
        /// The directory the command runs in.
        package var workingDirectory: String
        /// A name for listings.
        package var name: String?
        /// The requirements, as `--require` spells them (`network,unmetered`).
        package var require: String
        /// App conditions that must hold.
        package var conditions: [String]
        /// Tags for `cancel --tag`.
        package var tags: [String]
        /// The unique key, and what to do when an unfinished job has it: `keep`, `replace` or `append`.
        package var uniqueKey: String?
        /// `keep`, `replace` or `append`.
        package var onDuplicate: String?
        /// Durations, as the command line spells them (`30s`).
        package var delay: String?
        /// How long the job may wait to start.
        package var deadline: String?
        /// How long one run may take.
        package var timeout: String?
        /// How many times a failed run is retried.
        package var retries: Int
        /// The first retry's delay.
        package var backoff: String?
        /// The period of a periodic job.
        package var every: String?
        /// The flex window of a periodic job.
        package var flex: String?
        /// The calendar of a calendar job, in `--on-calendar` syntax (``OnCalendarParser``).
        package var onCalendar: String?
        /// How long after a calendar occurrence its run may still start (default ``defaultWindow``).
        package var window: String?
        /// The most a calendar run is delayed after its occurrence, to spread load.
        package var randomizedDelay: String?
        /// What happens to a missed calendar occurrence: `once` (default, run it once) or `skip`.
        package var catchUp: String?
        /// The IANA time zone of the calendar; absent for the daemon's.
        package var timeZone: String?
        /// Relaxations as `--relax` spells them (`unmetered=3d`, `external-power=battery-not-low@12h`);
        /// absent for none. Checked here as labels only: the daemon reads them (``RelaxationParser``).
        package var relax: [String]? = nil
        /// The networks the job may run on, as `--network` spells them (`wlan0,eth*,ssid:Home`); absent
        /// for any. Checked here as bounded text only (``DaemonLimits/networkListProblem(_:)``): the
        /// daemon reads the matchers (`SyncNetworkAllowlist(parsing:)`).
        package var network: String? = nil
        /// The absolute paths whose changes run the job (`--on-change`); absent for a job without a file
        /// trigger.
        package var onChange: [String]? = nil
        /// How long changes must have stopped before a run (`--quiet`, default ``defaultQuiet``); only with
        /// ``onChange``.
        package var quiet: String? = nil
        /// Whether losing the requirements stops the command and requeues it.
        package var stopOnLoss: Bool
        /// Whether the client waits for the outcome (a second response line).
        package var wait: Bool

        /// Creates a submission.
        package init(
            command: [String], workingDirectory: String, name: String? = nil, require: String = "network",
            conditions: [String] = [], tags: [String] = [], uniqueKey: String? = nil, onDuplicate: String? = nil,
            delay: String? = nil, deadline: String? = nil, timeout: String? = nil, retries: Int = 0,
            backoff: String? = nil, every: String? = nil, flex: String? = nil, onCalendar: String? = nil,
            window: String? = nil, randomizedDelay: String? = nil, catchUp: String? = nil, timeZone: String? = nil,
            stopOnLoss: Bool = false, wait: Bool = false
        ) {
            self.command = command
            self.workingDirectory = workingDirectory
            self.name = name
            self.require = require
            self.conditions = conditions
            self.tags = tags
            self.uniqueKey = uniqueKey
            self.onDuplicate = onDuplicate
            self.delay = delay
            self.deadline = deadline
            self.timeout = timeout
            self.retries = retries
            self.backoff = backoff
            self.every = every
            self.flex = flex
            self.onCalendar = onCalendar
            self.window = window
            self.randomizedDelay = randomizedDelay
            self.catchUp = catchUp
            self.timeZone = timeZone
            self.stopOnLoss = stopOnLoss
            self.wait = wait
        }
    }

    /// The job of a `submit` request; `nil` for the other kinds.
    package var submission: Submission? {
        if case .submit(let submission) = self { submission } else { nil }
    }

    /// Encodes the request as its wire fields.
    package func encode(to encoder: any Encoder) throws {
        try DaemonRequestFields(self).encode(to: encoder)
    }

    /// Throws naming `field` and `value` when `value` is not a label.
    static func checkLabel(_ value: String, field: String) throws(DaemonProtocolError) {
        if let problem = DaemonLimits.labelProblem(value) {
            throw DaemonProtocolError("invalid value '\(DaemonLimits.shown(value))' for field '\(field)': \(problem)")
        }
    }
}

extension DaemonRequest.Submission {
    /// The onDuplicate values.
    static let duplicatePolicies = ["keep", "replace", "append"]

    /// Checks what running a command needs: a first argument (the command) that is not empty, no NUL
    /// byte in an argument or in the directory, and an absolute directory.
    ///
    /// - Parameter fields: the prefix of the fields' names in an error (`submission.`).
    /// - Throws: ``DaemonProtocolError`` naming the field (`<fields>command`, `<fields>workingDirectory`)
    ///   and the value.
    static func checkCommand(
        _ command: [String], workingDirectory: String, fields: String
    ) throws(DaemonProtocolError) {
        guard let first = command.first, !first.isEmpty else {
            throw DaemonProtocolError("field '\(fields)command' must name a command, got \(command)")
        }
        for (index, argument) in command.enumerated() {
            if let problem = DaemonLimits.argumentProblem(argument) {
                throw DaemonProtocolError("invalid argument \(index) of field '\(fields)command': \(problem)")
            }
        }
        guard workingDirectory.hasPrefix("/") else {
            throw DaemonProtocolError(
                "field '\(fields)workingDirectory' must be an absolute path, got '\(workingDirectory)'")
        }
        if let problem = DaemonLimits.argumentProblem(workingDirectory) {
            throw DaemonProtocolError("invalid field '\(fields)workingDirectory': \(problem)")
        }
    }

    /// Checks every field against ``DaemonLimits``; see ``DaemonRequestFields/validated()``.
    ///
    /// - Throws: ``DaemonProtocolError`` naming the field (`submission.…`) and the value.
    package func validate() throws(DaemonProtocolError) {
        try Self.checkCommand(command, workingDirectory: workingDirectory, fields: "submission.")
        if let name { try DaemonRequest.checkLabel(name, field: "submission.name") }
        if let network, let problem = DaemonLimits.networkListProblem(network) {
            throw DaemonProtocolError(
                "invalid value '\(DaemonLimits.shown(network))' for field 'submission.network': \(problem)")
        }
        if let uniqueKey { try DaemonRequest.checkLabel(uniqueKey, field: "submission.uniqueKey") }
        for (field, labels) in [
            ("submission.conditions", conditions), ("submission.tags", tags), ("submission.relax", relax ?? []),
        ] {
            guard labels.count <= DaemonLimits.maximumLabels else {
                throw DaemonProtocolError(
                    "field '\(field)' has \(labels.count) entries; at most \(DaemonLimits.maximumLabels)")
            }
            for label in labels { try DaemonRequest.checkLabel(label, field: field) }
        }
        if let onDuplicate, !Self.duplicatePolicies.contains(onDuplicate) {
            throw DaemonProtocolError(
                "invalid value '\(DaemonLimits.shown(onDuplicate))' for field "
                    + "'submission.onDuplicate': expected keep, replace or append")
        }
        guard (0...1_000).contains(retries) else {
            throw DaemonProtocolError("field 'submission.retries' must be from 0 to 1000, got \(retries)")
        }
        for (field, text) in [
            ("delay", delay), ("deadline", deadline), ("timeout", timeout), ("backoff", backoff), ("every", every),
            ("flex", flex), ("window", window), ("randomizedDelay", randomizedDelay),
        ] {
            guard let text else { continue }
            do {
                _ = try DurationParser.parse(text, option: "field 'submission.\(field)'")
            } catch {
                throw DaemonProtocolError(error.message)
            }
        }
        do {
            _ = try periodDurations(everyOption: "field 'submission.every'", flexOption: "field 'submission.flex'")
            _ = try calendarFields { "field 'submission.\($0)'" }
            _ = try fileTriggerFields { "field 'submission.\($0)'" }
        } catch {
            throw DaemonProtocolError(error.message)
        }
    }

    /// The quiet period of a file-triggered job without `--quiet`.
    package static let defaultQuiet = "5s"

    /// The command-line option of a file-trigger field: `onChange` is `--on-change`, `quiet` `--quiet`.
    package static func fileTriggerOptionName(_ field: String) -> String {
        field == "onChange" ? "--on-change" : field == "quiet" ? "--quiet" : optionName(field)
    }

    /// The file trigger's paths and quiet period, checked: at most ``DaemonLimits/maximumWatchedPaths``
    /// absolute paths without NUL bytes, a valid quiet period, no `quiet` without `onChange`, and neither
    /// `every` nor `onCalendar` with it; `nil` for a job without one. Whether each path exists is checked
    /// by the command line and by the daemon's watcher.
    ///
    /// - Parameter name: how errors name a field (`onChange`, `quiet`, …): its option or wire field.
    package func fileTriggerFields(
        named name: (String) -> String = Self.fileTriggerOptionName
    ) throws(UsageError) -> (paths: [String], quiet: Duration)? {
        guard let onChange else {
            if let quiet { throw UsageError("\(name("quiet")) '\(quiet)' needs \(name("onChange")) PATH") }
            return nil
        }
        guard !onChange.isEmpty, onChange.count <= DaemonLimits.maximumWatchedPaths else {
            throw UsageError(
                "\(name("onChange")) takes 1 to \(DaemonLimits.maximumWatchedPaths) paths, got \(onChange.count)")
        }
        for path in onChange {
            if let problem = DaemonLimits.argumentProblem(path) {
                throw UsageError("invalid value '\(DaemonLimits.shown(path))' for \(name("onChange")): \(problem)")
            }
            guard path.hasPrefix("/") else {
                throw UsageError(
                    "invalid value '\(DaemonLimits.shown(path))' for \(name("onChange")): must be an absolute path")
            }
        }
        if every != nil { throw UsageError("\(name("onChange")) cannot be used with \(name("every"))") }
        if onCalendar != nil { throw UsageError("\(name("onChange")) cannot be used with \(name("onCalendar"))") }
        let quietText = quiet ?? Self.defaultQuiet
        return (onChange, try DurationParser.parse(quietText, option: name("quiet")))
    }

    /// The command-line option of a calendar field: `onCalendar` is `--on-calendar`.
    package static func optionName(_ field: String) -> String {
        "--" + field.flatMap { $0.isUppercase ? "-" + $0.lowercased() : String($0) }
    }

    /// The catch-up values.
    static let catchUpPolicies = ["once", "skip"]
    /// The window of a calendar job that names none: an hour.
    static let defaultWindow = "1h"

    /// The calendar of a calendar job (`nil` for other jobs), checked: the expression parses, the window
    /// is positive, the randomized delay shorter than it, the catch-up policy `once` or `skip`, the time
    /// zone given once and known; no calendar option without `onCalendar`, no calendar with `every`.
    ///
    /// - Parameter name: how errors name a field (`onCalendar`, `window`, …): its option or wire field.
    /// - Throws: ``UsageError`` naming the option and the value.
    package func calendarFields(named name: (String) -> String = Self.optionName) throws(UsageError)
        -> (spec: OnCalendarParser.Spec, window: Duration, randomizedDelay: Duration, catchUpOnce: Bool)?
    {
        guard let onCalendar else {
            for (field, value) in [
                ("window", window), ("randomizedDelay", randomizedDelay), ("catchUp", catchUp), ("timeZone", timeZone),
            ] where value != nil {
                throw UsageError("\(name(field)) needs \(name("onCalendar"))")
            }
            return nil
        }
        if every != nil { throw UsageError("\(name("onCalendar")) cannot be used with \(name("every"))") }
        var spec = try OnCalendarParser.parse(onCalendar, option: name("onCalendar"))
        if let timeZone {
            guard spec.timeZone == nil else {
                throw UsageError(
                    "invalid value '\(DaemonLimits.shown(timeZone))' for \(name("timeZone")): \(name("onCalendar")) "
                        + "names a time zone already"
                )
            }
            guard OnCalendarParser.isKnownTimeZone(timeZone) else {
                throw UsageError(
                    "invalid value '\(DaemonLimits.shown(timeZone))' for \(name("timeZone")): not a known IANA time zone"
                )
            }
            spec.timeZone = timeZone
        }
        let windowText = window ?? Self.defaultWindow
        let windowDuration = try DurationParser.parse(windowText, option: name("window"))
        guard windowDuration > .zero else {
            throw UsageError("invalid duration '\(windowText)' for \(name("window")): must be positive")
        }
        let delay =
            try randomizedDelay.map { text throws(UsageError) in
                try DurationParser.parse(text, option: name("randomizedDelay"))
            } ?? .zero
        guard delay < windowDuration else {
            throw UsageError(
                "invalid duration '\(randomizedDelay ?? "")' for \(name("randomizedDelay")): must be shorter than "
                    + "the window (\(windowText))")
        }
        if let catchUp, !Self.catchUpPolicies.contains(catchUp) {
            throw UsageError(
                "invalid value '\(DaemonLimits.shown(catchUp))' for \(name("catchUp")): expected once or skip")
        }
        return (spec, windowDuration, delay, catchUp != "skip")
    }

    /// The period and flex of a periodic job (`nil` for a one-off job), range-checked: the period is at
    /// least ``DaemonLimits/minimumPeriod``, the flex (default: a quarter of the period) positive and
    /// shorter than the period.
    ///
    /// - Throws: ``UsageError`` naming `everyOption` or `flexOption` and the value.
    package func periodDurations(everyOption: String, flexOption: String) throws(UsageError)
        -> (every: Duration, flex: Duration)?
    {
        guard let every else {
            if flex != nil { throw UsageError("\(flexOption) needs \(everyOption)") }
            return nil
        }
        let period = try DurationParser.parse(every, option: everyOption)
        guard period >= DaemonLimits.minimumPeriod else {
            throw UsageError(
                "invalid duration '\(every)' for \(everyOption): shorter than the minimum period of "
                    + DurationParser.format(DaemonLimits.minimumPeriod))
        }
        guard let flex else { return (period, period / 4) }
        let window = try DurationParser.parse(flex, option: flexOption)
        guard window > .zero, window < period else {
            throw UsageError(
                "invalid duration '\(flex)' for \(flexOption): must be positive and shorter than the period (\(every))")
        }
        return (period, window)
    }
}
