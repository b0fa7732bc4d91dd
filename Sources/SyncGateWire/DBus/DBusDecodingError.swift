/// Why bytes or a signature are not a valid D-Bus message, naming the field and the offending value.
package struct DBusDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The field or part of the message that is wrong, such as `body length` or `signature`.
    package var field: String
    /// What is wrong with it, with the value.
    package var reason: String

    /// Creates an error about `field`.
    package init(_ field: String, _ reason: String) {
        self.field = field
        self.reason = reason
    }

    /// `D-Bus <field>: <reason>`.
    package var description: String { "D-Bus \(field): \(reason)" }
}
