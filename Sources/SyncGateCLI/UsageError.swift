/// A mistake in the command line, reported as one line on stderr with exit status 2.
public struct UsageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong, naming the option or argument and the value given.
    public let message: String

    /// Creates an error with the given message.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
