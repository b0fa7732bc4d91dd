/// What `submit` does when an unfinished job already has the new job's unique key.
public enum DuplicatePolicy: Sendable, Hashable {
    /// Keep the existing job, drop the new one, and return the existing job's handle.
    case keepExisting
    /// Cancel the existing job and enqueue the new one.
    ///
    /// If the existing job is running, the new one does not start before the existing attempt returns,
    /// so two jobs with one key never run at once.
    case replace
}
