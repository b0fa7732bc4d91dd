/// Syntax checks for D-Bus names, as the specification defines them.
enum DBusNames {
    /// Whether `path` is an object path: `/`, or `/`-separated non-empty `[A-Za-z0-9_]` elements.
    static func isValidObjectPath(_ path: String) -> Bool {
        let bytes = Array(path.utf8)
        guard bytes.first == UInt8(ascii: "/") else { return false }
        if bytes.count == 1 { return true }
        guard bytes.last != UInt8(ascii: "/") else { return false }
        var previousWasSlash = false
        for byte in bytes {
            if byte == UInt8(ascii: "/") {
                if previousWasSlash { return false }
                previousWasSlash = true
            } else {
                guard isNameCharacter(byte) else { return false }
                previousWasSlash = false
            }
        }
        return true
    }

    /// Whether `name` is a member name: 1–255 bytes of `[A-Za-z0-9_]`, not starting with a digit.
    static func isValidMemberName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard let first = bytes.first, bytes.count <= 255, !isDigit(first) else { return false }
        return bytes.allSatisfy(isNameCharacter)
    }

    /// Whether `name` is an interface or error name: two or more dot-separated elements, each a member name.
    static func isValidInterfaceName(_ name: String) -> Bool {
        guard name.utf8.count <= 255 else { return false }
        let elements = name.split(separator: ".", omittingEmptySubsequences: false)
        return elements.count >= 2 && elements.allSatisfy { isValidMemberName(String($0)) }
    }

    /// Whether `name` is a bus name: a unique name (`:1.42`) or a well-known name (`org.example.Name`).
    static func isValidBusName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard bytes.count <= 255 else { return false }
        let isUnique = bytes.first == UInt8(ascii: ":")
        let elements = (isUnique ? Array(bytes.dropFirst()) : bytes).split(
            separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard elements.count >= 2 else { return false }
        return elements.allSatisfy { element in
            guard let first = element.first else { return false }
            if !isUnique && isDigit(first) { return false }
            return element.allSatisfy { isNameCharacter($0) || $0 == UInt8(ascii: "-") }
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private static func isNameCharacter(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || byte == UInt8(ascii: "_")
    }
}
