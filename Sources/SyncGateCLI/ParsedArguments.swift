import SyncGate

/// The arguments of one subcommand as ``CommandLineParser`` scanned them: every option is one the
/// subcommand declares, given once unless repeatable; the values are not checked yet.
package struct ParsedArguments: Sendable {
    /// The range of `--retries`.
    package static let retriesRange = 0...1_000

    /// The subcommand's name, for messages.
    package var subcommand: String
    /// Each option given, with its values in order (an empty string for a flag).
    package var values: [String: [String]]
    /// The operands: the positional arguments, or the command.
    package var operands: [String]

    /// Creates the arguments of `subcommand`.
    package init(subcommand: String, values: [String: [String]] = [:], operands: [String] = []) {
        self.subcommand = subcommand
        self.values = values
        self.operands = operands
    }

    /// Whether `option` was given.
    package func flag(_ option: String) -> Bool {
        values[option] != nil
    }

    /// The first value of `option`, or `nil` when it was not given.
    package func value(_ option: String) -> String? {
        values[option]?.first
    }

    /// The duration given to `option`, or `nil` when it was not given.
    package func duration(_ option: String) throws(UsageError) -> Duration? {
        guard let text = value(option) else { return nil }
        return try DurationParser.parse(text, option: option)
    }

    /// The absolute path given to `option`, or `nil` when it was not given.
    package func path(_ option: String) throws(UsageError) -> String? {
        guard let text = value(option) else { return nil }
        guard text.hasPrefix("/") else { throw UsageError("invalid path '\(text)' for \(option): must be absolute") }
        return text
    }

    /// The count given to `--retries`, within ``retriesRange``, or `nil` when it was not given.
    package func retries() throws(UsageError) -> Int? {
        guard let text = value("--retries") else { return nil }
        guard let count = Int(text), Self.retriesRange.contains(count) else {
            throw UsageError(
                "invalid count '\(text)' for --retries: expected a whole number from "
                    + "\(Self.retriesRange.lowerBound) to \(Self.retriesRange.upperBound)"
            )
        }
        return count
    }

    /// The requirements of `--require`, which the subcommand needs unless `--network` is given: a list
    /// of networks alone requires the network (on one of them).
    package func requiredRequirements() throws(UsageError) -> SyncRequirements {
        guard let text = value("--require") else {
            if value("--network") != nil { return .network }
            throw UsageError(
                "'\(subcommand)' needs --require LIST (such as --require network,unmetered) or --network LIST")
        }
        return try RequirementListParser.parse(text, option: "--require")
    }

    /// The conditions of `--condition`, none empty.
    package func conditions() throws(UsageError) -> Set<SyncCondition> {
        var conditions: Set<SyncCondition> = []
        for name in values["--condition"] ?? [] {
            guard !name.trimmingSpaces.isEmpty else { throw UsageError("empty condition name for --condition") }
            conditions.insert(SyncCondition(name))
        }
        return conditions
    }

    /// The allowlist of `--network` (``SyncGate/SyncNetworkAllowlist/init(parsing:)``), or `nil` when it
    /// was not given.
    package func allowedNetworks() throws(UsageError) -> SyncNetworkAllowlist? {
        guard let text = value("--network") else { return nil }
        return try Self.allowedNetworks(text, option: "--network")
    }

    /// Reads an allowlist's text form; a bad one, or one longer than
    /// ``DaemonLimits/maximumNetworkListBytes``, is a usage error naming `option` and the value.
    package static func allowedNetworks(_ text: String, option: String) throws(UsageError) -> SyncNetworkAllowlist {
        let allowlist: SyncNetworkAllowlist
        do {
            allowlist = try SyncNetworkAllowlist(parsing: text)
        } catch {
            throw UsageError("invalid value '\(DaemonLimits.shown(text))' for \(option): \(error.reason)")
        }
        if let problem = DaemonLimits.networkListProblem(text) {
            throw UsageError("invalid value '\(DaemonLimits.shown(text))' for \(option): \(problem)")
        }
        return allowlist
    }

    /// The `--network` option of `wait`, `run` and `submit`.
    package static let networkOption = CommandLineOption(
        "--network", .text("LIST"),
        help: [
            "run only on these networks: interface names or patterns (wlan0, eth*),",
            "type:wifi|cellular|wired-ethernet|other, connection:ID, ssid:NAME;",
            "comma-separated, any one matching suffices (\\, is a comma in a name)",
        ])

    /// The thresholds of `--pressure-threshold` (``PressureThresholdParser``), or the defaults when it was
    /// not given.
    package func pressureThresholds() throws(UsageError) -> PressureThresholds {
        guard let text = value("--pressure-threshold") else { return .default }
        return try PressureThresholdParser.parse(text, option: "--pressure-threshold")
    }

    /// The `--pressure-threshold` option of the subcommands that follow this machine's environment
    /// (`status`, `watch`, `wait`, `run`, `daemon`).
    package static let pressureThresholdOption = CommandLineOption(
        "--pressure-threshold", .text("LIST"),
        help: [
            "not-under-pressure's thresholds: RESOURCE=PERCENT items of cpu, io,",
            "memory (some avg10, above 0 and at most 100), such as cpu=70,io=40;",
            "a resource left out keeps its default (cpu=50,io=25,memory=10)",
        ])

    /// Checks each of `labels` (the values of `option`) against ``DaemonLimits/labelProblem(_:)``, and
    /// their count.
    package static func checkLabels(_ labels: [String], option: String) throws(UsageError) {
        guard labels.count <= DaemonLimits.maximumLabels else {
            throw UsageError("option '\(option)' given \(labels.count) times; at most \(DaemonLimits.maximumLabels)")
        }
        for label in labels {
            if let problem = DaemonLimits.labelProblem(label) {
                throw UsageError("invalid value '\(DaemonLimits.shown(label))' for \(option): \(problem)")
            }
        }
    }
}
