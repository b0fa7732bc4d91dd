import Foundation
import SyncGateCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writing to stdout and stderr, flushed at once so lines reach pipes as they happen.
///
/// A write to stdout that fails (a full disk, a closed descriptor) is remembered
/// (``stdoutFailure``): the command's status then says so (``checked(_:)``).
package enum Output {
    /// The `errno` of the first write to stdout that failed; 0 while none has.
    private static let failure = Atomic<Int32>(0)

    /// The `errno` of the first write to stdout that failed, or `nil` while every write succeeded.
    package static var stdoutFailure: Int32? {
        let code = failure.load(ordering: .acquiring)
        return code == 0 ? nil : code
    }

    /// The exit status of a command that returned `status`, given what its writes to stdout did: `status`
    /// while every write succeeded; 128 + `SIGPIPE` when the reader went away (`EPIPE`, as the signal's
    /// default action would have ended it); else ``ExitCode/failure``, after a line on stderr naming the
    /// error. A status that already says the command failed is kept.
    package static func checked(_ status: Int32) -> Int32 {
        guard status == ExitCode.success, let code = stdoutFailure else { return status }
        if code == EPIPE { return ExitCode.signaled(SIGPIPE) }
        error("cannot write the output: \(SystemErrorText.described(code))")
        return ExitCode.failure
    }

    /// Writes `line` and a newline to stdout.
    package static func line(_ line: String) {
        write(line + "\n")
    }

    /// Writes `text` to stdout as it is.
    package static func write(_ text: String) {
        writeAll(STDOUT_FILENO, text)
    }

    /// Writes `bytes` to stdout as they are (a job's output, which need not be UTF-8).
    package static func writeBytes(_ bytes: [UInt8]) {
        writeAll(STDOUT_FILENO, bytes)
    }

    /// Writes `syncgate: ` + `message` and a newline to stderr.
    package static func error(_ message: String) {
        writeAll(STDERR_FILENO, "syncgate: " + message + "\n")
    }

    /// Writes `line` and a newline to stderr, without the `syncgate: ` prefix.
    package static func errorLine(_ line: String) {
        writeAll(STDERR_FILENO, line + "\n")
    }

    /// Writes every byte of `text` to `descriptor`, retrying after interruptions and short writes.
    private static func writeAll(_ descriptor: Int32, _ text: String) {
        writeAll(descriptor, Array(text.utf8))
    }

    /// Writes every byte to `descriptor`, retrying after interruptions and short writes.
    private static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) {
        var bytes = bytes
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written < 0 {
                let code = errno
                if code == EINTR { continue }
                if descriptor == STDOUT_FILENO {
                    _ = failure.compareExchange(expected: 0, desired: code, ordering: .acquiringAndReleasing)
                }
                return
            }
            offset += written
        }
    }

    private static func systemWrite(_ descriptor: Int32, _ pointer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
            Glibc.write(descriptor, pointer, count)
        #else
            Darwin.write(descriptor, pointer, count)
        #endif
    }

    /// Whether stdout is a terminal.
    package static var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    /// The style for stdout under this process's environment.
    package static var style: TerminalStyle {
        TerminalStyle(isTerminal: stdoutIsTerminal, environment: ProcessInfo.processInfo.environment)
    }

    /// The terminal's width in columns, or 100 when unknown.
    package static var terminalWidth: Int {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 100 }
        return Int(size.ws_col)
    }

    /// The current time in ISO 8601, UTC, with milliseconds: `2025-01-31T12:00:00.000Z`.
    package static func timestamp(_ date: Date = Date()) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
