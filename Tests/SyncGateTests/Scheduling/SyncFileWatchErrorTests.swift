import SyncGateCore
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one-line text of each file watch error.
@Suite("SyncFileWatchError")
struct SyncFileWatchErrorTests {
    static let cases: [(SyncFileWatchError.Reason, String)] = [
        (.missing, "cannot watch /data: no such file or directory"),
        (.system(errno: EACCES), "cannot watch /data: \(String(cString: strerror(EACCES))) (errno \(EACCES))"),
        (
            .watchLimitReached(limit: "/proc/sys/fs/inotify/max_user_watches"),
            "cannot watch /data: the limit of file watches is reached (raise /proc/sys/fs/inotify/max_user_watches)"
        ),
    ]

    @Test("the description names the path and says what went wrong in words", arguments: cases)
    func description(reason: SyncFileWatchError.Reason, text: String) {
        #expect(SyncFileWatchError(path: "/data", reason: reason).description == text)
    }
}
