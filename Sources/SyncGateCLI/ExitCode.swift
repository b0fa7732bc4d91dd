/// The exit statuses of `syncgate`, documented in `syncgate --help`.
///
/// `run` exits with the command's own status instead (128 + N when a signal N ended it), except for the
/// cases listed here that happen before the command ran.
package enum ExitCode {
    /// Success: the requirements hold (`wait`), the command succeeded (`run`), or the output was printed.
    package static let success: Int32 = 0
    /// A runtime failure of the tool itself, explained on stderr.
    package static let failure: Int32 = 1
    /// A usage error: one line on stderr.
    package static let usage: Int32 = 2
    /// The requirements did not hold within `--timeout` (the code GNU `timeout` uses).
    package static let timedOut: Int32 = 124
    /// The command was found but could not be executed (`run`).
    package static let cannotExecute: Int32 = 126
    /// The command was not found (`run`).
    package static let commandNotFound: Int32 = 127
    /// Interrupted by SIGINT (128 + 2).
    package static let interrupted: Int32 = 130
    /// Terminated by SIGTERM (128 + 15).
    package static let terminated: Int32 = 143

    /// The conventional status for a process ended by signal `number`: 128 + `number`.
    package static func signaled(_ number: Int32) -> Int32 {
        128 + number
    }
}
