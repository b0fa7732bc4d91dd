/// What SyncGate reads from an error CloudKit or Core Data reports, as a platform-neutral value: its
/// `CKError` code (none for another kind of error), the suggested retry delay and, for a partial
/// failure, the errors of the items that failed.
struct CloudKitErrorFacts: Sendable, Hashable {
    /// The `CKError` code; `nil` when the error is not a `CKError`.
    var code: CloudKitErrorCodeMirror?
    /// `CKError.retryAfterSeconds` (`CKErrorRetryAfterKey`), when CloudKit suggests one.
    var retryAfterSeconds: Double?
    /// The item errors of a partial failure (`CKError.partialErrorsByItemID`'s values), in any order.
    var partialErrors: [CloudKitErrorFacts] = []
    /// The error's description, kept for logs.
    var description: String = ""

    /// Whether this error, or any item error inside a partial failure at any depth, is
    /// `.quotaExceeded`.
    ///
    /// Core Data reports a full iCloud storage inside a `.partialFailure` as often as directly: looking
    /// only at the top-level code misses it.
    var containsQuotaExceeded: Bool {
        code == .quotaExceeded || partialErrors.contains { $0.containsQuotaExceeded }
    }

    /// Whether a retry may succeed: the code is transient, or CloudKit suggested a delay.
    var isTransient: Bool {
        retryAfterSeconds != nil || (code?.isTransient ?? false)
    }
}
