/// The cases of CloudKit's `CKError.Code` that SyncGate acts on, as a platform-neutral value; every
/// other code is ``other(_:)`` with its raw value.
package enum CloudKitErrorCodeMirror: Sendable, Hashable {
    /// `.partialFailure`: some items failed; their errors are in `partialErrorsByItemID`.
    case partialFailure
    /// `.networkUnavailable`.
    case networkUnavailable
    /// `.networkFailure`.
    case networkFailure
    /// `.serviceUnavailable`.
    case serviceUnavailable
    /// `.requestRateLimited`.
    case requestRateLimited
    /// `.zoneBusy`.
    case zoneBusy
    /// `.serverResponseLost`.
    case serverResponseLost
    /// `.accountTemporarilyUnavailable`.
    case accountTemporarilyUnavailable
    /// `.notAuthenticated`.
    case notAuthenticated
    /// `.quotaExceeded`: the user's iCloud storage is full.
    case quotaExceeded
    /// Any other code, by its raw value.
    case other(Int)

    /// The named cases, for tables.
    static let named: [CloudKitErrorCodeMirror] = [
        .partialFailure, .networkUnavailable, .networkFailure, .serviceUnavailable, .requestRateLimited,
        .zoneBusy, .serverResponseLost, .accountTemporarilyUnavailable, .notAuthenticated, .quotaExceeded,
    ]

    /// Whether trying again later may succeed: the network, the service, rate limiting, a busy zone, a
    /// lost response, an account not ready yet.
    var isTransient: Bool {
        switch self {
        case .networkUnavailable, .networkFailure, .serviceUnavailable, .requestRateLimited, .zoneBusy,
            .serverResponseLost, .accountTemporarilyUnavailable:
            true
        case .partialFailure, .notAuthenticated, .quotaExceeded, .other:
            false
        }
    }
}
