import SyncGate
import SyncGateCLI
import SyncGateCore
import Testing

/// The daemon's logger of SyncGate's own messages: errors become lines of its log, the rest is left out.
struct DaemonLibraryLoggerTests {
    @Test func errorsAreWrittenAndNothingElse() {
        let lines = LockedState<[String]>([])
        let logger = DaemonLibraryLogger { line in lines.withLock { $0.append(line) } }
        for level in SyncGateLogLevel.allCases {
            logger.log("at \(level)", level: level, file: #fileID, function: #function, line: #line)
        }
        #expect(lines.withLock { $0 } == ["at \(SyncGateLogLevel.error)"])
        #expect(SyncGateLogLevel.allCases.filter(logger.isEnabled) == [.error])
    }
}
