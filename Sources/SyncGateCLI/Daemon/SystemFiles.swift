import Foundation
import SyncGateCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The file operations the daemon makes through Foundation, on paths in ``SystemBytes``' text form: each
/// path reaches the system as the bytes it stands for (`FileManager` would write an escaped byte as the
/// four bytes of its code point, and so name another file), and names read from a directory come back
/// in that form.
enum SystemFiles {
    /// Creates `path` with `mode`, and its missing parents with the same mode; an existing directory is
    /// left as it is.
    ///
    /// - Throws: an `NSError` of `NSPOSIXErrorDomain` whose `NSFilePathErrorKey` names the directory that
    ///   could not be created (``FileErrorText`` describes it); `EEXIST` when a file that is not a directory
    ///   is in the way.
    static func makeDirectories(_ path: String, mode: mode_t) throws {
        if SystemBytes.withCString(path, { mkdir($0, mode) }) == 0 { return }
        let code = errno
        if code == EEXIST {
            if isDirectory(path) { return }
            throw failure(code, path)
        }
        guard code == ENOENT else { throw failure(code, path) }
        let parent = (path as NSString).deletingLastPathComponent
        guard !parent.isEmpty, parent != path else { throw failure(code, path) }
        try makeDirectories(parent, mode: mode)
        guard SystemBytes.withCString(path, { mkdir($0, mode) }) == 0 || (errno == EEXIST && isDirectory(path)) else {
            throw failure(errno, path)
        }
    }

    /// Whether `path` is a directory (or a link to one).
    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return SystemBytes.withCString(path) { stat($0, &info) } == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// Whether something (a dangling link too) is at `path`.
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return SystemBytes.withCString(path) { lstat($0, &info) } == 0
    }

    /// The whole content of the file at `path`; `nil` when it cannot be opened or read.
    static func contents(_ path: String) -> Data? {
        let descriptor = SystemBytes.withCString(path) { open($0, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { return nil }
            if count == 0 { return data }
            data.append(contentsOf: buffer[..<count])
        }
    }

    /// Writes `data` as the whole content of the file at `path`, created with mode 0600 or truncated.
    ///
    /// - Throws: as ``makeDirectories(_:mode:)``, naming `path`.
    static func writeFile(_ data: Data, to path: String) throws {
        let descriptor = SystemBytes.withCString(path) { open($0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600) }
        guard descriptor >= 0 else { throw failure(errno, path) }
        defer { close(descriptor) }
        var offset = 0
        while offset < data.count {
            let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw failure(written < 0 ? errno : ENOSPC, path) }
            offset += written
        }
    }

    /// The names in `directory` (`.` and `..` aside), in its text form; `nil` when it cannot be read.
    static func entries(_ directory: String) -> [String]? {
        guard let stream = SystemBytes.withCString(directory, { opendir($0) }) else { return nil }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                SystemBytes.text(of: raw.prefix { $0 != 0 })
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// When the file at `path` was last modified; `nil` when it cannot be read.
    static func modificationDate(_ path: String) -> Date? {
        var info = stat()
        guard SystemBytes.withCString(path, { stat($0, &info) }) == 0 else { return nil }
        #if canImport(Darwin)
            let time = info.st_mtimespec
        #else
            let time = info.st_mtim
        #endif
        return Date(timeIntervalSince1970: Double(time.tv_sec) + Double(time.tv_nsec) / 1_000_000_000)
    }

    /// Removes `path` and, for a directory (never a link's target), all it holds; returns whether nothing
    /// is left at `path`.
    @discardableResult
    static func removeTree(_ path: String) -> Bool {
        var info = stat()
        guard SystemBytes.withCString(path, { lstat($0, &info) }) == 0 else { return errno == ENOENT }
        if info.st_mode & S_IFMT == S_IFDIR {
            for name in entries(path) ?? [] { removeTree(path + "/" + name) }
            return SystemBytes.withCString(path) { rmdir($0) } == 0
        }
        return SystemBytes.withCString(path) { unlink($0) } == 0
    }

    /// An error for `code`, naming `path` as Foundation's file errors do.
    private static func failure(_ code: Int32, _ path: String) -> NSError {
        NSError(domain: NSPOSIXErrorDomain, code: Int(code), userInfo: [NSFilePathErrorKey: path])
    }
}
