import SyncGateCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Thin wrappers over the POSIX calls the file store makes; each failure becomes a ``JobStoreError``
/// naming the path and the system's message. Paths are in ``SystemBytes``' text form: each reaches the
/// system as the bytes it stands for.
enum POSIXFile {
    static func failure(_ path: String, _ what: String, code: Int32 = errno) -> JobStoreError {
        JobStoreError(.ioFailure, path: path, cause: "\(what): \(SystemErrorText.described(code))")
    }

    /// Whether the path is a directory: `nil` when it does not exist.
    static func isDirectory(_ path: String) throws -> Bool? {
        var info = stat()
        if SystemBytes.withCString(path, { stat($0, &info) }) != 0 {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw failure(path, "stat failed")
        }
        return (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Creates a directory and its missing parents, each made durable in its parent (the parent's
    /// `fsync` after the `mkdir`, so a power loss cannot drop a directory a journal was then created in);
    /// returns the `errno` of the first failure.
    static func makeDirectories(_ path: String) -> Int32? {
        if SystemBytes.withCString(path, { mkdir($0, 0o755) }) == 0 { return syncParent(of: path) }
        let code = errno
        if code == EEXIST { return (try? isDirectory(path)) == true ? nil : ENOTDIR }
        guard code == ENOENT else { return code }
        let parent = parentPath(of: path)
        guard !parent.isEmpty, parent != path else { return code }
        if let failure = makeDirectories(parent) { return failure }
        return SystemBytes.withCString(path) { mkdir($0, 0o755) } == 0 ? syncParent(of: path) : errno
    }

    /// The directory that holds `path`: everything before its last `/`, trailing slashes aside (`/` for a
    /// path directly under the root, `.` for a name without one).
    static func parentPath(of path: String) -> String {
        var name = Substring(path)
        while name.count > 1, name.hasSuffix("/") { name = name.dropLast() }
        guard let slash = name.lastIndex(of: "/") else { return "." }
        return slash == name.startIndex ? "/" : String(name[..<slash])
    }

    /// Makes the entry of `path` in its parent durable (the parent directory's `fsync`); returns the
    /// `errno` of a failure.
    static func syncParent(of path: String) -> Int32? {
        let fd = openDescriptor(parentPath(of: path), O_RDONLY | O_DIRECTORY)
        guard fd >= 0 else { return errno }
        defer { _ = close(fd) }
        return fsync(fd) == 0 ? nil : errno
    }

    /// Whether something exists at the path.
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return SystemBytes.withCString(path) { lstat($0, &info) } == 0
    }

    static func closeDescriptor(_ fd: Int32) {
        _ = close(fd)
    }

    /// Releases the `flock` held through `fd`, then closes it.
    ///
    /// Closing alone would keep the lock while another reference to the same open file exists: a child
    /// process forked (by any thread of the process) and not yet past its `exec` holds one.
    static func unlockAndClose(_ fd: Int32) {
        _ = flock(fd, LOCK_UN)
        _ = close(fd)
    }

    /// Opens `path` (close-on-exec), retrying an interrupted call; throws naming the path.
    static func open(_ path: String, _ flags: Int32, mode: mode_t = 0o644) throws -> Int32 {
        let fd = openDescriptor(path, flags, mode: mode)
        if fd < 0 { throw failure(path, "cannot open") }
        return fd
    }

    /// Opens `path` (close-on-exec), retrying an interrupted call; -1 with `errno` set on failure.
    static func openDescriptor(_ path: String, _ flags: Int32, mode: mode_t = 0o644) -> Int32 {
        while true {
            #if canImport(Darwin)
                let fd = SystemBytes.withCString(path) { Darwin.open($0, flags | O_CLOEXEC, mode) }
            #elseif canImport(Musl)
                let fd = SystemBytes.withCString(path) { Musl.open($0, flags | O_CLOEXEC, mode) }
            #else
                let fd = SystemBytes.withCString(path) { Glibc.open($0, flags | O_CLOEXEC, mode) }
            #endif
            if fd >= 0 || errno != EINTR { return fd }
        }
    }

    /// Reads a whole file.
    static func readAll(_ fd: Int32, path: String) throws -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(path, "read failed")
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    /// Writes every byte, retrying short writes.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws {
        try bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let count = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    throw failure(path, "write failed")
                }
                offset += count
            }
        }
    }

    /// Writes every byte at `offset`, retrying short writes; the file offset does not move.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8], at offset: Int, path: String) throws {
        try bytes.withUnsafeBytes { buffer in
            var done = 0
            while done < buffer.count {
                let count = pwrite(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
                if count < 0 {
                    if errno == EINTR { continue }
                    throw failure(path, "write failed")
                }
                done += count
            }
        }
    }

    /// Makes the file `end` bytes long, its bytes from `start` (its length now) allocated and reading as
    /// zeros; returns whether it did. A failure (a full disk) leaves the file `start` bytes long.
    ///
    /// Allocated by `posix_fallocate` where the file system supports it, else by writing zeros, so that
    /// later writes into the range neither allocate blocks nor change the file's length.
    static func allocate(_ fd: Int32, from start: Int, to end: Int) -> Bool {
        guard end > start else { return true }
        #if canImport(Glibc) || canImport(Musl)
            let code = posix_fallocate(fd, off_t(start), off_t(end - start))
            if code == 0 { return true }
            guard code == EOPNOTSUPP || code == ENOSYS || code == EINVAL else {
                // A file system may keep part of a range it could not allocate in full.
                _ = ftruncate(fd, off_t(start))
                return false
            }
        #endif
        return allocateByWriting(fd, from: start, to: end)
    }

    /// ``allocate(_:from:to:)`` by writing zeros: where `posix_fallocate` is missing or the file system
    /// does not support it. A failure leaves the file `start` bytes long.
    static func allocateByWriting(_ fd: Int32, from start: Int, to end: Int) -> Bool {
        guard end > start else { return true }
        do {
            try writeAll(fd, [UInt8](repeating: 0, count: end - start), at: start, path: "")
            return true
        } catch {
            _ = ftruncate(fd, off_t(start))
            return false
        }
    }

    /// Makes the file's written data durable: `fdatasync` on Linux; on Apple platforms `F_FULLFSYNC`,
    /// since `fsync` there leaves the data in the drive's cache, with `fsync` where the file system does
    /// not support it.
    static func syncData(_ fd: Int32, path: String) throws {
        #if canImport(Darwin)
            let result = fullSync(fd)
        #else
            let result = fdatasync(fd)
        #endif
        if result != 0 { throw failure(path, "sync failed") }
    }

    /// Makes a rename or creation inside the directory open at `fd` durable; `path` names the directory in
    /// the error.
    static func syncDirectory(_ fd: Int32, path: String) throws {
        #if canImport(Darwin)
            let result = fullSync(fd)
        #else
            let result = fsync(fd)
        #endif
        if result != 0 { throw failure(path, "directory sync failed") }
    }

    #if canImport(Darwin)
        /// `F_FULLFSYNC` (the drive's cache flushed too), or `fsync` where the file system does not
        /// support it; 0 on success.
        private static func fullSync(_ fd: Int32) -> Int32 {
            fcntl(fd, F_FULLFSYNC) == 0 ? 0 : fsync(fd)
        }
    #endif

    /// Removes a file if it exists; a failure is ignored.
    static func remove(_ path: String) {
        _ = SystemBytes.withCString(path) { unlink($0) }
    }

    static func truncate(_ fd: Int32, to length: Int, path: String) throws {
        if ftruncate(fd, off_t(length)) != 0 { throw failure(path, "truncate failed") }
    }

    static func rename(_ from: String, _ to: String) throws {
        #if canImport(Darwin)
            let result = SystemBytes.withCString(from) { from in
                SystemBytes.withCString(to) { Darwin.rename(from, $0) }
            }
        #else
            let result = SystemBytes.withCString(from) { from in
                SystemBytes.withCString(to) { Glibc.rename(from, $0) }
            }
        #endif
        if result != 0 { throw failure(to, "rename from \(from) failed") }
    }

    /// Writes a complete file at `path` atomically: a temporary file, written, synced and renamed over
    /// it. Returns the new file's descriptor, open for writing.
    ///
    /// The rename is durable once the directory is synced (``syncDirectory(_:path:)``), which is the
    /// caller's part: after the rename, whatever fails next, `path` names the new file.
    ///
    /// - Throws: when the file could not be written, synced or renamed; `path` is as it was then, and the
    ///   temporary file is removed.
    static func replaceFile(_ path: String, with bytes: [UInt8]) throws -> Int32 {
        let temporary = path + ".tmp"
        let fd = try open(temporary, O_WRONLY | O_CREAT | O_TRUNC)
        do {
            try writeAll(fd, bytes, path: temporary)
            try syncData(fd, path: temporary)
            try rename(temporary, path)
        } catch {
            // The partial file would hold the space a full disk needs for anything else.
            close(fd)
            remove(temporary)
            throw error
        }
        return fd
    }
}
