#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A ``SyncGateLogger`` that writes one line per message to standard error:
/// `syncgate: warning: network source lost (SyncGate/PathFollower.swift:42)`.
///
/// The `syncgate` tool installs one for `--verbose`. Each line is written with one `write(2)`, so lines
/// from several threads never interleave.
public struct StderrLogger: SyncGateLogger {
    /// The lowest level written.
    public var minimumLevel: SyncGateLogLevel
    /// The word each line starts with.
    public var prefix: String

    /// Creates a logger that writes messages of `minimumLevel` and above.
    public init(minimumLevel: SyncGateLogLevel = .info, prefix: String = "syncgate") {
        self.minimumLevel = minimumLevel
        self.prefix = prefix
    }

    /// Whether `level` is at least ``minimumLevel``.
    public func isEnabled(_ level: SyncGateLogLevel) -> Bool { level >= minimumLevel }

    /// Writes the line (``line(_:level:file:line:)``) to standard error.
    public func log(_ message: String, level: SyncGateLogLevel, file: String, function: String, line: Int) {
        guard isEnabled(level) else { return }
        let text = self.line(message, level: level, file: file, line: line) + "\n"
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                write(2, buffer.baseAddress! + offset, buffer.count - offset)
            }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// The line written for a message, without its newline.
    public func line(_ message: String, level: SyncGateLogLevel, file: String, line: Int) -> String {
        "\(prefix): \(level): \(message) (\(file):\(line))"
    }
}
