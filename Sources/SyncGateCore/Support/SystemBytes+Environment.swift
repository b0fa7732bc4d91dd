#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Bionic)
    import Bionic
#elseif canImport(Darwin)
    import Darwin
#endif

extension SystemBytes {
    /// The value of the process's environment variable `name` in its text form (lossless, as
    /// ``text(of:)``), or `nil` when it is not set.
    ///
    /// Environment values are bytes, as file names are: Foundation's `ProcessInfo` decodes them as
    /// UTF-8 and replaces what is not with U+FFFD, so a `HOME` read there can name another directory.
    package static func environment(_ name: String) -> String? {
        withCString(name) { getenv($0) }.map { text(ofCString: $0) }
    }

    /// Every variable of the process's environment, name to value, both in their text form; an entry
    /// without `=` is skipped, and of a name given twice the first value is kept (the one `getenv` reads).
    package static func environmentVariables() -> [String: String] {
        var variables: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let bytes = Array(UnsafeRawBufferPointer(start: pointer, count: strlen(pointer)))
            if let equals = bytes.firstIndex(of: UInt8(ascii: "=")) {
                let name = text(of: bytes[..<equals])
                if variables[name] == nil { variables[name] = text(of: bytes[(equals + 1)...]) }
            }
            entry += 1
        }
        return variables
    }

    /// The home directory of the process's user from the user database, in its text form; `nil` when
    /// the database has no entry for the user.
    package static func userHomeDirectory() -> String? {
        guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return nil }
        return text(ofCString: directory)
    }
}
