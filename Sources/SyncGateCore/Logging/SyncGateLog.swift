/// The process-wide ``SyncGateLogger`` that SyncGate's sources, scheduler and tool write to; none by
/// default, so nothing is logged and no message is built.
///
/// ```swift
/// SyncGateLog.install(StderrLogger(minimumLevel: .info))
/// ```
public enum SyncGateLog {
    private static let installed = LockedState<(any SyncGateLogger)?>(nil)

    /// Installs `logger` for the whole process, replacing the previous one; `nil` turns logging off.
    public static func install(_ logger: (any SyncGateLogger)?) {
        installed.withLock { $0 = logger }
    }

    /// The installed logger, if any.
    public static var logger: (any SyncGateLogger)? {
        installed.withLock { $0 }
    }

    /// Logs a message built only when a logger is installed and wants `level`.
    package static func log(
        _ level: SyncGateLogLevel, _ message: @autoclosure () -> String,
        file: String = #fileID, function: String = #function, line: Int = #line
    ) {
        guard let logger, logger.isEnabled(level) else { return }
        logger.log(message(), level: level, file: file, function: function, line: line)
    }
}
