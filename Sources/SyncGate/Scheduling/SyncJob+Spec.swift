extension SyncJob {
    /// Everything about a job except its operation: what the state machine decides on.
    ///
    /// What every job has (id, requirements, conditions, priority) is stored inline; the options most
    /// jobs leave at their defaults live in one shared ``Options`` object, allocated only for a job that
    /// changes one of them, so a queued job stays small.
    struct Spec: Sendable {
        var id: ID
        var requirements: SyncRequirements
        var conditions: Set<SyncCondition>
        var priority: SyncJobPriority
        let options: Options

        var delay: Duration? { options.delay }
        var startDeadline: Duration? { options.startDeadline }
        var runTimeout: Duration? { options.runTimeout }
        var retry: RetryPolicy { options.retry }
        var onRequirementsLost: RequirementsLostPolicy { options.onRequirementsLost }
        var uniqueKey: String? { options.uniqueKey }
        var onDuplicate: DuplicatePolicy { options.onDuplicate }
        var serialGroup: String? { options.serialGroup }
        var tags: Set<String> { options.tags }
    }

    /// A job's less common settings, immutable and shared when they are all defaults.
    final class Options: Sendable {
        let delay: Duration?
        let startDeadline: Duration?
        let runTimeout: Duration?
        let retry: RetryPolicy
        let onRequirementsLost: RequirementsLostPolicy
        let uniqueKey: String?
        let onDuplicate: DuplicatePolicy
        let serialGroup: String?
        let tags: Set<String>

        /// The defaults of ``SyncJob/init(id:requires:conditions:priority:delay:startDeadline:runTimeout:retry:onRequirementsLost:uniqueKey:onDuplicate:serialGroup:tags:operation:)``.
        static let defaults = Options(job: nil)

        private init(job: SyncJob?) {
            delay = job?.delay
            startDeadline = job?.startDeadline
            runTimeout = job?.runTimeout
            retry = job?.retry ?? .none
            onRequirementsLost = job?.onRequirementsLost ?? .cancelAndRequeue
            uniqueKey = job?.uniqueKey
            onDuplicate = job?.onDuplicate ?? .keepExisting
            serialGroup = job?.serialGroup
            tags = job?.tags ?? []
        }

        /// The options of `job`: the shared defaults when it changes none of them.
        static func of(_ job: SyncJob) -> Options {
            let isDefault =
                job.delay == nil && job.startDeadline == nil && job.runTimeout == nil && job.retry == .none
                && job.onRequirementsLost == .cancelAndRequeue && job.uniqueKey == nil
                && job.onDuplicate == .keepExisting && job.serialGroup == nil && job.tags.isEmpty
            return isDefault ? defaults : Options(job: job)
        }
    }

    /// The job without its operation.
    var spec: Spec {
        Spec(id: id, requirements: requirements, conditions: conditions, priority: priority, options: .of(self))
    }
}
