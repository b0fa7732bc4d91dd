/// Why CloudKit could not tell the account status: the error it threw, kept whole, and what SyncGate
/// reads from it.
public struct CloudKitAccountError: Error, CustomStringConvertible {
    /// The error `CKContainer.accountStatus()` threw.
    public let underlying: any Error
    /// Its code, retry delay and item errors.
    package let facts: CloudKitErrorFacts

    /// Wraps `underlying` with the facts read from it.
    package init(underlying: any Error, facts: CloudKitErrorFacts) {
        self.underlying = underlying
        self.facts = facts
    }

    /// The underlying error's description.
    public var description: String { "\(underlying)" }
}
