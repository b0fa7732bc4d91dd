#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A pipe whose two ends are close-on-exec, so no program the daemon starts inherits either unless a
/// spawn hands it over on purpose.
///
/// Every spawn of SyncGate also closes what it was not given (`SpawnInheritance`), so the moment between
/// `pipe` and `fcntl` leaks neither end into another command.
enum CloseOnExecPipe {
    /// Makes the pipe, both ends close-on-exec and, when `nonBlocking`, non-blocking.
    ///
    /// - Returns: the reading and writing ends, or `nil` (with `errno` set) when the process has no
    ///   descriptor left.
    static func make(nonBlocking: Bool = false) -> (read: Int32, write: Int32)? {
        var pair: [Int32] = [-1, -1]
        guard pipe(&pair) == 0 else { return nil }
        for descriptor in pair {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            if nonBlocking { _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK) }
        }
        return (pair[0], pair[1])
    }
}
