/// A JSON value whose objects keep their keys in the order written, so the output's shape is stable.
package enum JSONValue: Sendable, Equatable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A whole number.
    case int(Int)
    /// A number with a fraction.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, its members in order.
    case object([(String, JSONValue)])

    /// The value serialized on one line, without spaces.
    package var compact: String {
        var output = ""
        write(into: &output, indent: nil, level: 0)
        return output
    }

    /// The value serialized over several lines, indented by two spaces per level.
    package var pretty: String {
        var output = ""
        write(into: &output, indent: "  ", level: 0)
        return output
    }

    /// The member named `key` of an object, or `nil`.
    package subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    /// Whether two values are equal, objects compared member by member in order.
    package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.int(let a), .int(let b)): a == b
        case (.double(let a), .double(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a.map(\.0) == b.map(\.0) && a.map(\.1) == b.map(\.1)
        default: false
        }
    }

    private func write(into output: inout String, indent: String?, level: Int) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .int(let value): output += String(value)
        case .double(let value): output += value.isFinite ? "\(value)" : "null"
        case .string(let value): Self.writeString(value, into: &output)
        case .array(let elements):
            writeContainer(
                elements.map { (nil, $0) }, open: "[", close: "]", into: &output, indent: indent, level: level)
        case .object(let members):
            writeContainer(
                members.map { ($0.0, $0.1) }, open: "{", close: "}", into: &output, indent: indent, level: level)
        }
    }

    private func writeContainer(
        _ items: [(String?, JSONValue)],
        open: String,
        close: String,
        into output: inout String,
        indent: String?,
        level: Int
    ) {
        output += open
        guard !items.isEmpty else {
            output += close
            return
        }
        for (offset, (key, value)) in items.enumerated() {
            if offset > 0 { output += "," }
            if let indent { output += "\n" + String(repeating: indent, count: level + 1) }
            if let key {
                Self.writeString(key, into: &output)
                output += indent == nil ? ":" : ": "
            }
            value.write(into: &output, indent: indent, level: level + 1)
        }
        if let indent { output += "\n" + String(repeating: indent, count: level) }
        output += close
    }

    private static func writeString(_ string: String, into output: inout String) {
        output += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
