/// An app-defined gate, identified by name, that jobs and waiters can require.
///
/// An app sets a condition with ``SyncEnvironment/setCondition(_:isMet:)`` ("user-enabled-sync",
/// "db-migrated") and jobs list the conditions they need. Conditions compare by name.
///
/// The name must not be empty. Construction does not check it; every place that uses a condition does:
/// ``SyncEnvironment/waitUntil(_:conditions:timeout:)`` throws ``SyncEnvironmentError/invalidArgument(parameter:message:)``,
/// the scheduler's `submit` rejects the job, and ``SyncEnvironment/setCondition(_:isMet:)`` throws
/// ``SyncEnvironmentError/invalidArgument(parameter:message:)`` too.
public struct SyncCondition: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The condition's name.
    public let name: String

    /// Creates a condition with the given name.
    public init(_ name: String) {
        self.name = name
    }

    /// Creates a condition from a string literal: `let migrated: SyncCondition = "db-migrated"`.
    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// The condition's name.
    public var description: String { name }

    /// Whether the name is usable (not empty).
    package var isValid: Bool { !name.isEmpty }
}
