/// Every case of CloudKit's `CKAccountStatus`, as a platform-neutral value.
package enum CloudAccountStatusMirror: Sendable, Hashable, CaseIterable {
    /// `.couldNotDetermine`.
    case couldNotDetermine
    /// `.available`.
    case available
    /// `.restricted`: Parental Controls or device management deny access.
    case restricted
    /// `.noAccount`.
    case noAccount
    /// `.temporarilyUnavailable`: signed in, but not ready for CloudKit yet.
    case temporarilyUnavailable
    /// A status added by a later SDK (`@unknown default`).
    case unknown

    /// The ``AccountStatus`` it means; an unknown status is ``AccountStatus/couldNotDetermine``.
    package var accountStatus: AccountStatus {
        switch self {
        case .couldNotDetermine, .unknown: .couldNotDetermine
        case .available: .available
        case .restricted: .restricted
        case .noAccount: .noAccount
        case .temporarilyUnavailable: .temporarilyUnavailable
        }
    }
}
