extension SyncJob {
    /// Everything about a job except its operation: what the state machine decides on.
    ///
    /// What every job sets (id, requirements, conditions, priority) is stored inline; the other options
    /// are read from a shared, immutable ``OptionsBox``, allocated only for a job that changes one of
    /// them, so a queued job stays small. Read them as properties: `spec.retry`, `spec.uniqueKey`.
    @dynamicMemberLookup
    struct Spec: Sendable {
        var id: ID
        var requirements: SyncRequirements
        var conditions: Set<SyncCondition>
        private let box: OptionsBox
        /// Last, so the one-byte fields that follow a spec in a record can share its tail.
        var priority: SyncJobPriority

        init(id: ID, options: SyncJobOptions) {
            self.id = id
            self.requirements = options.requirements
            self.conditions = options.conditions
            self.priority = options.priority
            self.box = OptionsBox.of(options)
        }

        /// An option other than the inline ones.
        subscript<Value>(dynamicMember option: KeyPath<SyncJobOptions, Value>) -> Value {
            box.options[keyPath: option]
        }
    }

    /// A job's options, immutable and shared when all but the inline ones are defaults.
    final class OptionsBox: Sendable {
        /// The options; the inline ones (requirements, conditions, priority) are not read from here.
        let options: SyncJobOptions

        private static let defaults = OptionsBox(SyncJobOptions())

        private init(_ options: SyncJobOptions) {
            self.options = options
        }

        /// The box of `options`: the shared defaults when only inline options differ from them.
        static func of(_ options: SyncJobOptions) -> OptionsBox {
            var rest = options
            rest.requirements = defaults.options.requirements
            rest.conditions = defaults.options.conditions
            rest.priority = defaults.options.priority
            return rest == defaults.options ? defaults : OptionsBox(options)
        }
    }

    /// The job without its operation.
    var spec: Spec { Spec(id: id, options: options) }
}
