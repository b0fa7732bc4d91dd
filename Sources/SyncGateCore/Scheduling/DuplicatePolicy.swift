/// What `submit` does when an unfinished job already has the new job's unique key.
public enum DuplicatePolicy: Sendable, Hashable, CustomStringConvertible {
    /// Keep the existing job, drop the new one, and return the existing job's handle.
    ///
    /// The existing job is the key's oldest unfinished job that is not being cancelled: the one running
    /// or next to run, not the last of jobs appended under the key.
    case keepExisting
    /// Cancel the existing job and enqueue the new one.
    ///
    /// If the existing job is running, the new one does not start before the existing attempt returns,
    /// so two jobs with one key never run at once.
    case replace
    /// Keep the existing job and run the new one after it, as a dependent of the key's last job
    /// (WorkManager's APPEND): the new job gets that job's output as an input, and fails with
    /// ``SyncJobError/dependencyDidNotSucceed(id:outcome:)`` when it does not succeed. The key then has
    /// several unfinished jobs, which run one after another; the new job's handle is returned.
    case append
    /// Like ``append``, but the new job runs after the key's last job however that one ends
    /// (WorkManager's APPEND_OR_REPLACE, where a failed chain is replaced by a new one): it gets the
    /// output as an input only when that job succeeded.
    case appendOrReplace

    /// The policy's name, as in code: `append`.
    public var description: String {
        switch self {
        case .keepExisting: "keepExisting"
        case .replace: "replace"
        case .append: "append"
        case .appendOrReplace: "appendOrReplace"
        }
    }
}
