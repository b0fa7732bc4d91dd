import SyncGate

/// The daemon's logger of SyncGate's own errors (a file trigger that cannot watch a new directory, a
/// durable record that cannot be written): each as one line of the daemon's log, escaped as the daemon's
/// lines are. Warnings and below are left to `--verbose`.
package struct DaemonLibraryLogger: SyncGateLogger {
    /// Writes one line of the daemon's log.
    package let write: @Sendable (String) -> Void

    /// A logger writing each error with `write`.
    package init(write: @escaping @Sendable (String) -> Void) {
        self.write = write
    }

    /// Only errors are wanted.
    package func isEnabled(_ level: SyncGateLogLevel) -> Bool { level >= .error }

    /// Writes `message` as a line of the daemon's log.
    package func log(_ message: String, level: SyncGateLogLevel, file: String, function: String, line: Int) {
        guard isEnabled(level) else { return }
        write(message)
    }
}
