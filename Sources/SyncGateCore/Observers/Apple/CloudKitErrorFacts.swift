/// What SyncGate reads from an error CloudKit or Core Data reports, as a platform-neutral value: its
/// `CKError` code (none for another kind of error), the suggested retry delay and, for a partial
/// failure, the errors of the items that failed.
package struct CloudKitErrorFacts: Sendable, Hashable {
    /// The `CKError` code; `nil` when the error is not a `CKError`.
    package var code: CloudKitErrorCodeMirror?
    /// `CKError.retryAfterSeconds` (`CKErrorRetryAfterKey`), when CloudKit suggests one.
    package var retryAfterSeconds: Double?
    /// The item errors of a partial failure (`CKError.partialErrorsByItemID`'s values), in any order.
    package var partialErrors: [CloudKitErrorFacts] = []
    /// The error's description, kept for logs.
    package var description: String = ""

    /// Creates the facts of one error; the fields left out are unknown.
    package init(
        code: CloudKitErrorCodeMirror? = nil, retryAfterSeconds: Double? = nil,
        partialErrors: [CloudKitErrorFacts] = [],
        description: String = ""
    ) {
        self.code = code
        self.retryAfterSeconds = retryAfterSeconds
        self.partialErrors = partialErrors
        self.description = description
    }

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
