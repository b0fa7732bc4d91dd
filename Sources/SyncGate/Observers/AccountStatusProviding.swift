/// A source of the sync account's status.
///
/// On Apple platforms SyncGate provides one backed by CloudKit; elsewhere an app implements it over its
/// own sign-in state.
public protocol AccountStatusProviding: Sendable {
    /// The last known account status. Thread-safe.
    var status: AccountStatus { get }
    /// Stream of account status changes. Emits the current value on subscription.
    var statusStream: AsyncStream<AccountStatus> { get }
    /// Checks the account now, updates ``status`` and returns the result.
    func refresh() async throws -> AccountStatus
}
