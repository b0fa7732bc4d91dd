#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Bionic)
    import Bionic
#elseif canImport(Darwin)
    import Darwin
#endif

/// The lossless text form of the byte strings the system hands out (command-line arguments, file
/// names), and the way back to those bytes.
///
/// Arguments and file names are bytes, not necessarily UTF-8; a Swift string cannot hold bytes that are
/// not, and Swift's own decoding (`CommandLine.arguments`, `String(cString:)`) replaces them with U+FFFD,
/// so a command given `a\xFFb` would run with `a\u{FFFD}b`, a different argument. Here each byte that is
/// not part of valid UTF-8 becomes one code point of the last 128 of Unicode's Supplementary Private Use
/// Area-B (U+10FF80 + the byte − 0x80), and a code point of that range that the bytes themselves held is
/// kept as the escapes of its four bytes. So `bytes(of: text(of: b)) == b` for any bytes `b`, valid UTF-8
/// outside that range reads as itself, and the text survives anything that carries Unicode (JSON, a
/// journal).
package enum SystemBytes {
    /// The code points that stand for single bytes: U+10FF80 + (byte − 0x80).
    private static let escapes: ClosedRange<UInt32> = 0x10FF80...0x10FFFF

    /// The text form of `bytes`.
    package static func text(of bytes: some Collection<UInt8>) -> String {
        let bytes = Array(bytes)
        var scalars = String.UnicodeScalarView()
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var position = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                let scalar = Unicode.UTF8.decode(encoded)
                if escapes.contains(scalar.value) {
                    for byte in encoded { scalars.append(escape(byte)) }
                } else {
                    scalars.append(scalar)
                }
                position += encoded.count
            case .error(let length):
                for byte in bytes[position..<position + length] { scalars.append(escape(byte)) }
                position += length
            case .emptyInput:
                return String(scalars)
            }
        }
    }

    /// The text form of a C string (an argument, a path from `getcwd`).
    package static func text(ofCString pointer: UnsafePointer<CChar>) -> String {
        text(of: UnsafeRawBufferPointer(start: pointer, count: strlen(pointer)))
    }

    /// The bytes `text` stands for.
    package static func bytes(of text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if escapes.contains(scalar.value) {
                bytes.append(UInt8(scalar.value - 0x10FF00))
            } else {
                bytes.append(contentsOf: UTF8.encode(scalar)!)
            }
        }
        return bytes
    }

    /// Whether `text` stands for valid UTF-8 alone: no escaped byte.
    package static func isUnicode(_ text: String) -> Bool {
        !text.unicodeScalars.contains { escapes.contains($0.value) }
    }

    /// A C string, allocated with `malloc` (release it with `free`), of the bytes `text` stands for.
    package static func cString(_ text: String) -> UnsafeMutablePointer<CChar> {
        let bytes = bytes(of: text)
        let string = malloc(bytes.count + 1)!.assumingMemoryBound(to: CChar.self)
        for (offset, byte) in bytes.enumerated() { string[offset] = CChar(bitPattern: byte) }
        string[bytes.count] = 0
        return string
    }

    /// Calls `body` with a C string of the bytes `text` stands for (a path for a system call).
    package static func withCString<Result>(
        _ text: String, _ body: (UnsafePointer<CChar>) throws -> Result
    ) rethrows -> Result {
        var bytes = bytes(of: text).map { CChar(bitPattern: $0) }
        bytes.append(0)
        return try bytes.withUnsafeBufferPointer { try body($0.baseAddress!) }
    }

    /// The process's working directory in its text form; `"."` when it cannot be read (it was removed).
    package static func currentDirectory() -> String {
        (try? readCurrentDirectory().get()) ?? "."
    }

    /// The process's working directory in its text form, or `getcwd`'s `errno` (`ENOENT` when the directory
    /// was removed).
    package static func readCurrentDirectory() -> Result<String, SystemError> {
        guard let pointer = getcwd(nil, 0) else { return .failure(SystemError(code: errno)) }
        defer { free(pointer) }
        return .success(text(ofCString: pointer))
    }

    /// An `errno` value as an error.
    package struct SystemError: Error, Sendable, Equatable {
        /// The `errno` value.
        package var code: Int32
    }

    /// The process's arguments, `argv[0]` first, in their text form.
    package static func arguments() -> [String] {
        (0..<Int(CommandLine.argc)).map { index in
            CommandLine.unsafeArgv[index].map { text(ofCString: $0) } ?? ""
        }
    }

    private static func escape(_ byte: UInt8) -> Unicode.Scalar {
        Unicode.Scalar(0x10FF00 + UInt32(byte))!
    }
}
