/// A source of the sync account's status.
///
/// On Apple platforms SyncGate's ``CloudAccountSource`` follows CloudKit's account (created by
/// ``SyncEnvironment/init(monitoring:cloudKit:)``); elsewhere, or for a sign-in of its own, an app feeds
/// its state through a `StatusFeed<AccountStatus>`, which conforms and which ``SyncEnvironment``
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
