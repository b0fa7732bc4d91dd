/// A mistake in the command line, reported as one line on stderr with exit status 2.
package struct UsageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong, naming the option or argument and the value given.
    package let message: String

    /// Creates an error with the given message.
    package init(_ message: String) {
        self.message = message
    }

    /// The message.
    package var description: String { message }
}
