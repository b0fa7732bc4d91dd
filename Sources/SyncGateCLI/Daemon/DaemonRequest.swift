/// One request of the daemon's wire format (``DaemonProtocol``).
public struct DaemonRequest: Codable, Sendable, Equatable {
    /// What the request asks for.
    public enum Kind: String, Codable, Sendable, CaseIterable {
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

    /// The job a `submit` request queues.
    public struct Submission: Codable, Sendable, Equatable {
        /// The command and its arguments; the first is looked up in the daemon's `PATH`.
        public var command: [String]
        /// The directory the command runs in.
        public var workingDirectory: String
        /// A name for listings.
        public var name: String?
        /// The requirements, as `--require` spells them (`network,unmetered`).
        public var require: String
        /// App conditions that must hold.
        public var conditions: [String]
        /// Tags for `cancel --tag`.
        public var tags: [String]
        /// The unique key, and what to do when an unfinished job has it: `keep`, `replace` or `append`.
        public var uniqueKey: String?
        /// `keep`, `replace` or `append`.
        public var onDuplicate: String?
        /// Durations, as the command line spells them (`30s`).
        public var delay: String?
        /// How long the job may wait to start.
        public var deadline: String?
        /// How long one run may take.
        public var timeout: String?
        /// How many times a failed run is retried.
        public var retries: Int
        /// The first retry's delay.
        public var backoff: String?
        /// The period of a periodic job.
        public var every: String?
        /// The flex window of a periodic job.
        public var flex: String?
        /// Whether losing the requirements stops the command and requeues it.
        public var stopOnLoss: Bool
        /// Whether the client waits for the outcome (a second response line).
        public var wait: Bool

        /// Creates a submission.
        public init(
            command: [String], workingDirectory: String, name: String? = nil, require: String = "network",
            conditions: [String] = [], tags: [String] = [], uniqueKey: String? = nil, onDuplicate: String? = nil,
            delay: String? = nil, deadline: String? = nil, timeout: String? = nil, retries: Int = 0,
            backoff: String? = nil, every: String? = nil, flex: String? = nil, stopOnLoss: Bool = false,
            wait: Bool = false
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
            self.stopOnLoss = stopOnLoss
            self.wait = wait
        }
    }

    /// Always ``DaemonProtocol/version``.
    public var version: Int
    /// What the request asks for.
    public var type: Kind
    /// For `submit`.
    public var submission: Submission?
    /// For `jobs`: include finished jobs.
    public var all: Bool?
    /// For `cancel` and `logs`: the job id.
    public var id: String?
    /// For `cancel`: every job with this tag.
    public var tag: String?
    /// For `cancel`: the unfinished job with this unique key.
    public var uniqueKey: String?
    /// For `setCondition`: the condition's name.
    public var name: String?
    /// For `setCondition`: whether it holds.
    public var on: Bool?
    /// For `logs`: send the runs as ``LogStreamLine``s after the first response line, instead of all in
    /// that line.
    public var stream: Bool?

    /// Creates a request of the current version.
    public init(
        type: Kind, submission: Submission? = nil, all: Bool? = nil, id: String? = nil, tag: String? = nil,
        uniqueKey: String? = nil, name: String? = nil, on: Bool? = nil, stream: Bool? = nil
    ) {
        self.version = DaemonProtocol.version
        self.type = type
        self.submission = submission
        self.all = all
        self.id = id
        self.tag = tag
        self.uniqueKey = uniqueKey
        self.name = name
        self.on = on
        self.stream = stream
    }

    /// Checks the fields the type needs, and every value against ``DaemonLimits``.
    ///
    /// Durations are read as the command line reads them (``DurationParser``) and range-checked here, so
    /// nothing later does arithmetic on an unchecked number: `every` is at least
    /// ``DaemonLimits/minimumPeriod``, `flex` is positive and shorter than `every`, `retries` is from 0 to
    /// 1000. Labels (name, tags, conditions, keys, ids) follow ``DaemonLimits/labelProblem(_:)``; the
    /// command's arguments and directory carry no NUL byte.
    ///
    /// - Throws: ``DaemonProtocolError`` naming the field and the value.
    public func validate() throws(DaemonProtocolError) {
        switch type {
        case .submit:
            guard let submission else { throw DaemonProtocolError("request 'submit' has no field 'submission'") }
            try submission.validate()
        case .jobs:
            break
        case .cancel:
            let given = [("id", id), ("tag", tag), ("uniqueKey", uniqueKey)].compactMap { field, value in
                value.map { (field, $0) }
            }
            guard given.count == 1 else {
                throw DaemonProtocolError("request 'cancel' needs exactly one of 'id', 'tag', 'uniqueKey'")
            }
            guard !given[0].1.isEmpty else { throw DaemonProtocolError("request 'cancel' has an empty selector") }
            try Self.checkLabel(given[0].1, field: given[0].0)
        case .logs:
            guard let id, !id.isEmpty else { throw DaemonProtocolError("request 'logs' has no field 'id'") }
            try Self.checkLabel(id, field: "id")
        case .setCondition:
            guard let name, !name.isEmpty else {
                throw DaemonProtocolError("request 'setCondition' has no non-empty field 'name'")
            }
            try Self.checkLabel(name, field: "name")
            guard on != nil else { throw DaemonProtocolError("request 'setCondition' has no field 'on'") }
        }
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

    /// Checks every field against ``DaemonLimits``; see ``DaemonRequest/validate()``.
    ///
    /// - Throws: ``DaemonProtocolError`` naming the field (`submission.…`) and the value.
    public func validate() throws(DaemonProtocolError) {
        guard let first = command.first, !first.isEmpty else {
            throw DaemonProtocolError("field 'submission.command' must name a command, got \(command)")
        }
        for (index, argument) in command.enumerated() {
            if let problem = DaemonLimits.argumentProblem(argument) {
                throw DaemonProtocolError("invalid argument \(index) of field 'submission.command': \(problem)")
            }
        }
        guard workingDirectory.hasPrefix("/") else {
            throw DaemonProtocolError(
                "field 'submission.workingDirectory' must be an absolute path, got '\(workingDirectory)'")
        }
        if let problem = DaemonLimits.argumentProblem(workingDirectory) {
            throw DaemonProtocolError("invalid field 'submission.workingDirectory': \(problem)")
        }
        if let name { try DaemonRequest.checkLabel(name, field: "submission.name") }
        if let uniqueKey { try DaemonRequest.checkLabel(uniqueKey, field: "submission.uniqueKey") }
        for (field, labels) in [("submission.conditions", conditions), ("submission.tags", tags)] {
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
            ("flex", flex),
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
        } catch {
            throw DaemonProtocolError(error.message)
        }
    }

    /// The period and flex of a periodic job (`nil` for a one-off job), range-checked: the period is at
    /// least ``DaemonLimits/minimumPeriod``, the flex (default: a quarter of the period) positive and
    /// shorter than the period.
    ///
    /// - Throws: ``UsageError`` naming `everyOption` or `flexOption` and the value.
    public func periodDurations(everyOption: String, flexOption: String) throws(UsageError)
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
