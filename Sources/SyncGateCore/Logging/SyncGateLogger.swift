/// Receives SyncGate's messages for operators: a source lost or regained, a job retried, the iCloud
/// quota exceeded.
///
/// The shape of iCloudSyncStatusKit's logger (a message, a level and the source location). SyncGate logs
/// nothing until a logger is installed with ``SyncGateLog/install(_:)``; ``StderrLogger`` writes lines
/// to standard error (the `syncgate` tool's `--verbose`), and on Apple platforms ``OSLogLogger`` writes
/// to the unified log.
///
/// ```swift
/// struct PrintLogger: SyncGateLogger {
///     func log(_ message: String, level: SyncGateLogLevel, file: String, function: String, line: Int) {
///         print("[\(level)] \(message)")
///     }
/// }
/// SyncGateLog.install(PrintLogger())
/// ```
public protocol SyncGateLogger: Sendable {
    /// Records one message.
    ///
    /// Called on whatever thread noticed the event, never under one of SyncGate's locks; keep it short.
    func log(_ message: String, level: SyncGateLogLevel, file: String, function: String, line: Int)

    /// Whether messages of `level` are wanted; SyncGate builds no message text for a level that is not.
    func isEnabled(_ level: SyncGateLogLevel) -> Bool
}

extension SyncGateLogger {
    /// Every level is wanted unless the logger says otherwise.
    public func isEnabled(_ level: SyncGateLogLevel) -> Bool { true }
}
