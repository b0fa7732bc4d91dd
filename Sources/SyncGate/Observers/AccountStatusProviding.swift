/// A source of the sync account's status.
///
/// On Apple platforms SyncGate provides one backed by CloudKit; elsewhere an app feeds its own sign-in
/// state through a `StatusFeed<AccountStatus>`, which conforms and which ``SyncEnvironment`` follows
/// synchronously. Any other conforming type is followed through ``statusStream``.
public protocol AccountStatusProviding: Sendable {
    /// The last known account status. Thread-safe.
    var status: AccountStatus { get }
    /// Stream of account status changes. Emits the current value on subscription.
    var statusStream: AsyncStream<AccountStatus> { get }
    /// Checks the account now, updates ``status`` and returns the result.
    func refresh() async throws -> AccountStatus
}
