/// Whether the user's sync account can be used.
///
/// Platform-neutral: its cases follow CloudKit's account statuses, so an Apple app can map
/// `CKAccountStatus` onto it directly. SyncGate's ``CloudAccountSource`` does so on Apple platforms;
/// elsewhere an app supplies the status through an ``AccountStatusProviding`` source of its own.
public enum AccountStatus: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Signed in and usable.
    case available
    /// No account is signed in.
    case noAccount
    /// The account exists but is restricted (parental controls, device management).
    case restricted
    /// The account is temporarily unavailable (being set up, needs re-authentication).
    case temporarilyUnavailable
    /// The status could not be determined (not checked yet, or the check failed).
    case couldNotDetermine

    /// A short lowercase name, such as `available` or `no-account`.
    public var description: String {
        switch self {
        case .available: "available"
        case .noAccount: "no-account"
        case .restricted: "restricted"
        case .temporarilyUnavailable: "temporarily-unavailable"
        case .couldNotDetermine: "could-not-determine"
        }
    }
}
