/// Why bytes or a signature are not a valid D-Bus message, naming the field and the offending value.
struct DBusDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The field or part of the message that is wrong, such as `body length` or `signature`.
    var field: String
    /// What is wrong with it, with the value.
    var reason: String

    /// Creates an error about `field`.
    init(_ field: String, _ reason: String) {
        self.field = field
        self.reason = reason
    }

    /// `D-Bus <field>: <reason>`.
    var description: String { "D-Bus \(field): \(reason)" }
}
