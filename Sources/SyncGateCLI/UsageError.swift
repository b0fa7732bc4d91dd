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

    /// The longest ``line`` in characters; a message past it is cut (a value echoed whole could be any size).
    package static let maximumLineLength = 1024

    /// The message as the tool prints it: one line (control characters escaped, as
    /// `DaemonLimits.escaped` does) of at most ``maximumLineLength`` characters, cut with `…`.
    package var line: String {
        DaemonLimits.cut(DaemonLimits.escaped(message), at: Self.maximumLineLength)
    }
}
