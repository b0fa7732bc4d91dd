extension SyncNetworkAllowlist {
    /// Why a text is not an allowlist: the offending item and a one-line reason naming it.
    public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The item (or the whole text) at fault.
        public var value: String
        /// The one-line reason, naming the value.
        public var reason: String

        /// The reason.
        public var description: String { reason }
    }

    /// The prefixes a matcher's text may start with.
    static let prefixes = ["interface", "type", "connection", "ssid"]

    /// Reads the text form: matchers separated by commas, such as `wlan0,eth*,ssid:Home,connection:Office,type:wifi`.
    ///
    /// | item | matcher |
    /// |---|---|
    /// | `wlan0`, `eth*`, `interface:NAME` | ``Matcher/interface(_:)`` (a name or a `*`/`?` pattern) |
    /// | `type:wifi`, `type:cellular`, `type:wired-ethernet`, `type:other` | ``Matcher/interfaceType(_:)`` |
    /// | `connection:NAME` | ``Matcher/connection(_:)`` |
    /// | `ssid:NAME` | ``Matcher/ssid(_:)`` |
    ///
    /// `\,` and `\\` stand for a comma and a backslash inside a value. The result is valid (see
    /// ``SyncJobOptions/allowedNetworks``): an empty item, an unknown type, a value past
    /// ``maximumValueBytes`` or a list past ``maximumMatchers`` throws, naming the item.
    public init(parsing text: String) throws(ParseError) {
        var items: [String] = []
        var current = ""
        var escaping = false
        for character in text {
            if escaping {
                guard character == "," || character == "\\" else {
                    throw ParseError(value: text, reason: "\"\(text)\": \\ escapes only a comma or a backslash")
                }
                current.append(character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else if character == "," {
                items.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        if escaping { throw ParseError(value: text, reason: "\"\(text)\" ends in a lone \\") }
        items.append(current)
        var matchers: [Matcher] = []
        for item in items {
            matchers.append(try Self.matcher(item))
        }
        self.init(matchers)
        if let refusal = validationError {
            // The text's own problem: without the job option's name, which the refusal leads with.
            let field = refusal.field + ": "
            let reason = refusal.reason
            let problem = reason.hasPrefix(field) ? String(reason.dropFirst(field.count)) : reason
            throw ParseError(value: text, reason: problem)
        }
    }

    private static func matcher(_ item: String) throws(ParseError) -> Matcher {
        guard !item.isEmpty else { throw ParseError(value: item, reason: "an empty network in the list") }
        var prefix: Substring = ""
        var value = Substring(item)
        if let colon = item.firstIndex(of: ":"), prefixes.contains(String(item[..<colon])) {
            prefix = item[..<colon]
            value = item[item.index(after: colon)...]
        }
        guard !value.isEmpty else { throw ParseError(value: item, reason: "\"\(item)\" names no network") }
        switch prefix {
        case "type":
            let kinds = ConnectionInterface.allCases.filter { $0 != .none }
            guard let kind = kinds.first(where: { $0.description == value }) else {
                let names = kinds.map(\.description).joined(separator: ", ")
                throw ParseError(value: item, reason: "unknown interface type \"\(value)\" (expected \(names))")
            }
            return .interfaceType(kind)
        case "connection": return .connection(String(value))
        case "ssid": return .ssid(String(value))
        default: return .interface(String(value))
        }
    }

    /// `value` with commas and backslashes escaped.
    static func escaped(_ value: String) -> String {
        guard value.contains(where: { $0 == "," || $0 == "\\" }) else { return value }
        var text = ""
        for character in value {
            if character == "," || character == "\\" { text.append("\\") }
            text.append(character)
        }
        return text
    }
}
