#if os(Linux)
    import Foundation
    import Glibc
    import Testing

    /// A tmpfs of a given size mounted on a new directory, unmounted and removed at the end.
    ///
    /// Mounting needs root; the suite that uses it skips otherwise, and fails instead when
    /// `SYNCGATE_REQUIRE_TMPFS=1` (CI sets it).
    final class TmpfsVolume {
        /// `SYNCGATE_REQUIRE_TMPFS=1` turns a skip into a failure.
        static let isRequired = ProcessInfo.processInfo.environment["SYNCGATE_REQUIRE_TMPFS"] == "1"
        /// Why the suite cannot run, or `nil` when it can.
        static let unavailableReason: String? = getuid() == 0 ? nil : "mounting a tmpfs needs root"
        /// Whether the suite runs: it can, or it must (and then fails with the reason).
        static let isEnabled = unavailableReason == nil || isRequired
        /// The message shown when the suite is skipped.
        static var skipComment: Comment {
            Comment(
                rawValue: "tmpfs storage tests skipped: \(unavailableReason ?? "")."
                    + " Run as root; SYNCGATE_REQUIRE_TMPFS=1 makes this a failure.")
        }

        /// The mount point.
        let path: String

        init(size: Int) throws {
            if let reason = Self.unavailableReason { throw DBusTestError("cannot run: \(reason)") }
            var template = Array("/tmp/syncgate-tmpfs-XXXXXX".utf8CString)
            guard let made = mkdtemp(&template) else { throw DBusTestError("mkdtemp failed") }
            path = String(cString: made)
            guard mount("tmpfs", path, "tmpfs", 0, "size=\(size),mode=0700") == 0 else {
                let code = errno
                rmdir(path)
                throw DBusTestError("mount tmpfs on \(path) failed: errno \(code)")
            }
        }

        deinit {
            umount2(path, Int32(MNT_DETACH))
            rmdir(path)
        }

        /// Writes a file of `bytes` zero bytes.
        func fill(_ name: String, bytes: Int) throws {
            let file = open(path + "/" + name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            guard file >= 0 else { throw DBusTestError("open failed: errno \(errno)") }
            defer { close(file) }
            let chunk = [UInt8](repeating: 0, count: 4096)
            var left = bytes
            while left > 0 {
                let written = chunk.withUnsafeBytes { write(file, $0.baseAddress, min(left, chunk.count)) }
                guard written > 0 else { throw DBusTestError("write failed: errno \(errno)") }
                left -= written
            }
        }
    }
#endif
