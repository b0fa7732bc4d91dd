/// A source of the sync account's status: the last known ``AccountStatus`` and a multicast stream of
/// changes (``PartObserving/status`` and ``PartObserving/statusStream``; the stream emits the current
/// value on subscription), plus a way to check the account now.
///
/// On Apple platforms SyncGate's ``CloudAccountSource`` follows CloudKit's account (created by
/// ``SyncEnvironment/init(monitoring:cloudKit:)``); elsewhere, or for a sign-in of its own, an app feeds
/// its state through a `StatusFeed<AccountStatus>`, which conforms and which ``SyncEnvironment``
/// follows synchronously, and passes it to
/// ``SyncEnvironment/init(connectivity:power:account:cloudDrive:syncEvents:storage:resources:clock:)``. Any other
/// conforming type is followed through its stream. Without a source, the account is not monitored
/// and ``SyncRequirements/accountReady`` reads as met.
public protocol AccountStatusProviding: PartObserving where Status == AccountStatus {
    /// Checks the account now, updates ``PartObserving/status`` and returns the result.
    func refresh() async throws -> AccountStatus
}
