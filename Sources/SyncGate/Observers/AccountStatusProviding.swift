/// A source of the sync account's status.
///
/// SyncGate ships no account source on any platform: an app feeds its own sign-in state (on Apple
/// platforms, for instance, CloudKit's `CKContainer.accountStatus()`, whose statuses map one to one onto
/// ``AccountStatus``) through a `StatusFeed<AccountStatus>`, which conforms and which ``SyncEnvironment``
/// follows synchronously, and passes it to
/// ``SyncEnvironment/init(connectivity:power:account:cloudDrive:syncEvents:storage:clock:)``. Any other
/// conforming type is followed through ``statusStream``. Without a source, the account is not monitored
/// and ``SyncRequirements/accountReady`` reads as met.
public protocol AccountStatusProviding: Sendable {
    /// The last known account status. Thread-safe.
    var status: AccountStatus { get }
    /// Stream of account status changes. Emits the current value on subscription.
    var statusStream: AsyncStream<AccountStatus> { get }
    /// Checks the account now, updates ``status`` and returns the result.
    func refresh() async throws -> AccountStatus
}
