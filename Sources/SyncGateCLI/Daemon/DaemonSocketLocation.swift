import Foundation
import SyncGateCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The checks the daemon makes on its socket's location before it listens there.
///
/// * The socket's directory is created with mode 0700 when missing. An existing one must be a real
///   directory (a symbolic link is refused, never followed), owned by the daemon's user, and not writable
///   by group or others; read or search bits for others are then removed (mode 0700) when it holds
///   nothing but the socket (the mode of a shared directory, such as `/`, is never changed). So a directory that
///   another user created first (`/tmp/syncgate-UID` when `XDG_RUNTIME_DIR` is not set) is refused with
///   an error naming its owner: it can keep the daemon from starting there, never receive its clients.
/// * At the socket's path, nothing or a socket may exist. A socket that a daemon answers on is refused
///   ("another daemon is listening"); a stale one (nobody answers) is removed. Anything else (a regular
///   file, a directory, a link) is refused and left as it is.
enum DaemonSocketLocation {
    /// Checks (and creates) the directory of `socketPath` and clears a stale socket there.
    ///
    /// - Throws: ``DaemonSocket/Failure`` naming the path and the problem.
    static func prepare(socketPath: String) throws(DaemonSocket.Failure) {
        // Before anything is created: a path no socket can have leaves no directory behind.
        if let problem = DaemonSocket.pathProblem(socketPath) { throw DaemonSocket.Failure(description: problem) }
        let directory = (socketPath as NSString).deletingLastPathComponent
        try prepareDirectory(
            directory.isEmpty ? "." : directory, ownEntries: [(socketPath as NSString).lastPathComponent])
        var info = stat()
        guard SystemBytes.withCString(socketPath, { lstat($0, &info) }) == 0 else {
            guard errno == ENOENT else {
                throw DaemonSocket.Failure(
                    description: "cannot read \(socketPath): \(SystemErrorText.message(errno))")
            }
            return
        }
        guard info.st_mode & S_IFMT == S_IFSOCK else {
            throw DaemonSocket.Failure(
                description:
                    "\(socketPath) exists and is \(kind(info.st_mode)), not a socket: refusing to replace it "
                    + "(remove it, or choose another path with --socket)")
        }
        if let existing = try? DaemonSocket.connect(to: socketPath) {
            close(existing)
            throw DaemonSocket.Failure(description: "another daemon is listening on \(socketPath)")
        }
        // Nobody answers: the socket of a daemon that ended without removing it.
        SystemBytes.withCString(socketPath) { _ = unlink($0) }
    }

    /// Creates `directory` (mode 0700) or checks an existing one; see ``DaemonSocketLocation``.
    static func prepareDirectory(_ directory: String, ownEntries: Set<String>) throws(DaemonSocket.Failure) {
        _ = try makeDirectory(directory)
        var info = stat()
        guard SystemBytes.withCString(directory, { lstat($0, &info) }) == 0 else {
            throw DaemonSocket.Failure(description: "cannot read \(directory): \(SystemErrorText.message(errno))")
        }
        let type = info.st_mode & S_IFMT
        guard type == S_IFDIR else {
            throw DaemonSocket.Failure(
                description: "the socket directory \(directory) is \(kind(info.st_mode)), not a directory: refusing it")
        }
        guard info.st_uid == getuid() else {
            throw DaemonSocket.Failure(
                description:
                    "the socket directory \(directory) belongs to uid \(info.st_uid), not \(getuid()): refusing it "
                    + "(another user may have created it; remove it, or set XDG_RUNTIME_DIR or SYNCGATE_SOCKET)")
        }
        let mode = info.st_mode & 0o777
        guard mode & 0o022 == 0 else {
            throw DaemonSocket.Failure(
                description:
                    "the socket directory \(directory) is writable by other users (mode \(String(mode, radix: 8))): "
                    + "refusing it (chmod 700 it, or remove it)")
        }
        if mode & 0o077 != 0 && holdsOnly(ownEntries, directory) {
            SystemBytes.withCString(directory) { _ = chmod($0, 0o700) }
        }
    }

    /// Creates `directory` with mode 0700, and its missing parents.
    ///
    /// - Returns: 0, or `mkdir`'s error for a reason other than a missing parent (`EEXIST` when it
    ///   exists), for the caller to judge.
    /// - Throws: ``DaemonSocket/Failure`` naming the path and the reason when a missing parent cannot be
    ///   created.
    static func makeDirectory(_ directory: String) throws(DaemonSocket.Failure) -> Int32 {
        guard SystemBytes.withCString(directory, { mkdir($0, 0o700) }) != 0 else { return 0 }
        let code = errno
        guard code == ENOENT else { return code }
        do {
            try SystemFiles.makeDirectories(directory, mode: 0o700)
        } catch {
            throw DaemonSocket.Failure(description: FileErrorText.describe(error, path: directory))
        }
        return 0
    }

    /// Whether `directory` holds nothing but entries named in `names` (SyncGate's own), so that its mode
    /// may be changed: a directory shared with anything else keeps its mode.
    static func holdsOnly(_ names: Set<String>, _ directory: String) -> Bool {
        guard let entries = SystemFiles.entries(directory) else { return false }
        return entries.allSatisfy(names.contains)
    }

    /// A file type, for messages: "a regular file", "a symbolic link", …
    static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFREG: "a regular file"
        case S_IFDIR: "a directory"
        case S_IFLNK: "a symbolic link"
        case S_IFSOCK: "a socket"
        case S_IFIFO: "a FIFO"
        case S_IFCHR, S_IFBLK: "a device"
        default: "a file of another type"
        }
    }
}
