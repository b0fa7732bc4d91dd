/// The error of a job that failed in an earlier run of the app, as the journal recorded it.
///
/// A restored durable job whose dependency failed before the restart fails with
/// ``SyncJobError/dependencyDidNotSucceed(id:outcome:)``, whose outcome carries this error: the
/// original error's type is not kept, its description is.
public struct EarlierRunFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The original error's description.
    public let description: String

    /// Creates the failure from the original error's description.
    public init(description: String) {
        self.description = description
    }
}
