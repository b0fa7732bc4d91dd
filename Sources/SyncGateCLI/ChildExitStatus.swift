/// How a child process ended, decoded from the status `waitpid` reports.
package enum ChildExitStatus: Sendable, Hashable, CustomStringConvertible {
    /// The process called `exit` with this status.
    case exited(Int32)
    /// A signal with this number ended the process.
    case signaled(Int32)

    /// Decodes a raw `waitpid` status (the `WIFEXITED`/`WEXITSTATUS`/`WTERMSIG` layout of Linux and BSD).
    package init(waitStatus: Int32) {
        let signal = waitStatus & 0x7f
        self = signal == 0 ? .exited((waitStatus >> 8) & 0xff) : .signaled(signal)
    }

    /// The status a shell reports for it: the exit status, or 128 + the signal number.
    package var exitCode: Int32 {
        switch self {
        case .exited(let status): status
        case .signaled(let signal): ExitCode.signaled(signal)
        }
    }

    /// Whether the process exited with status 0.
    package var isSuccess: Bool { self == .exited(0) }

    /// `exited with status 3` or `killed by signal 15 (SIGTERM)`.
    package var description: String {
        switch self {
        case .exited(let status): "exited with status \(status)"
        case .signaled(let signal): "killed by signal \(signal)" + (Self.names[signal].map { " (\($0))" } ?? "")
        }
    }

    private static let names: [Int32: String] = [
        1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 6: "SIGABRT", 9: "SIGKILL", 11: "SIGSEGV", 13: "SIGPIPE",
        14: "SIGALRM", 15: "SIGTERM",
    ]
}
