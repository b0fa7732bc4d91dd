import SyncGateCore

#if canImport(os)
    import os

    /// A ``SyncGateLogger`` that writes to the unified log through one `os.Logger`.
    ///
    /// ```swift
    /// SyncGateLog.install(OSLogLogger(subsystem: "com.example.app", category: "sync"))
    /// ```
    public struct OSLogLogger: SyncGateLogger {
        private let logger: Logger

        /// Creates a logger for `subsystem` and `category`.
        public init(subsystem: String, category: String = "SyncGate") {
            logger = Logger(subsystem: subsystem, category: category)
        }

        /// Writes the message at the matching `OSLogType`, with its source location; public, since the
        /// messages name states and errors, never user data.
        public func log(_ message: String, level: SyncGateLogLevel, file: String, function: String, line: Int) {
            let type: OSLogType =
                switch level {
                case .debug: .debug
                case .info: .info
                case .warning: .default
                case .error: .error
                }
            logger.log(level: type, "\(message, privacy: .public) (\(file, privacy: .public):\(line))")
        }
    }
#endif
