#if os(Linux)
    import Foundation
    import Glibc
    import Testing

    /// A small tmpfs mounted on a new directory for one test, filled on demand, unmounted and removed
    /// at the end.
    ///
    /// Mounting needs root; the tests that use it skip otherwise, and fail instead when
    /// `SYNCGATE_REQUIRE_TMPFS=1` (CI sets it).
    final class FullTmpfs {
        /// `SYNCGATE_REQUIRE_TMPFS=1` turns a skip into a failure.
        static let isRequired = ProcessInfo.processInfo.environment["SYNCGATE_REQUIRE_TMPFS"] == "1"
        /// Why the tests cannot run, or `nil` when they can.
        static let unavailableReason: String? = getuid() == 0 ? nil : "mounting a tmpfs needs root"
        /// Whether the tests run: they can, or they must (and then fail with the reason).
        static let isEnabled = unavailableReason == nil || isRequired
        /// The message shown when the tests are skipped.
        static var skipComment: Comment {
            Comment(
                rawValue: "full-disk tests skipped: \(unavailableReason ?? "")."
                    + " Run as root; SYNCGATE_REQUIRE_TMPFS=1 makes this a failure.")
        }

        struct Failure: Error, CustomStringConvertible {
            var description: String
        }

        /// The mount point.
        let path: String
        private var fillers = 0

        /// Mounts a tmpfs of `bytes` on a fresh directory.
        init(bytes: Int) throws {
            if let reason = Self.unavailableReason { throw Failure(description: "cannot run: \(reason)") }
            var template = Array((NSTemporaryDirectory() + "syncgate-full-XXXXXX").utf8CString)
            guard let made = mkdtemp(&template) else { throw Failure(description: "mkdtemp: errno \(errno)") }
            path = String(cString: made)
            guard mount("tmpfs", path, "tmpfs", 0, "size=\(bytes),mode=0700") == 0 else {
                let code = errno
                rmdir(path)
                throw Failure(description: "mount tmpfs on \(path): errno \(code)")
            }
        }

        deinit {
            umount2(path, Int32(MNT_DETACH))
            rmdir(path)
        }

        /// Writes a new file until the disk is full; returns its path (unlink it to free the disk).
        @discardableResult
        func fill() throws -> String {
            fillers += 1
            let filler = path + "/filler-\(fillers)"
            let file = open(filler, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            guard file >= 0 else { throw Failure(description: "open \(filler): errno \(errno)") }
            defer { close(file) }
            let chunk = [UInt8](repeating: 0xA5, count: 4096)
            while chunk.withUnsafeBytes({ write(file, $0.baseAddress, $0.count) }) > 0 {}
            guard errno == ENOSPC else { throw Failure(description: "filling \(path): errno \(errno)") }
            return filler
        }
    }
#endif
