#if os(Linux)
    import Foundation
    import Glibc

    /// A small tmpfs mounted for one test, unmounted (lazily) when the value goes away; needs root.
    final class TinyDisk {
        /// Where the tmpfs is mounted.
        let path: String
        private var fillers = 0

        /// Mounts a tmpfs of `bytes` on a fresh directory.
        init(bytes: Int) throws {
            var template = Array((NSTemporaryDirectory() + "syncgate-disk-XXXXXX").utf8CString)
            guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
                throw POSIXError(.EIO)
            }
            path = String(cString: template.withUnsafeBufferPointer { $0.baseAddress! })
            guard mount("tmpfs", path, "tmpfs", 0, "size=\(bytes)") == 0 else {
                let code = errno
                rmdir(path)
                throw DurableAttackSupport.Failure(
                    message: "mount tmpfs on \(path): \(String(cString: strerror(code)))")
            }
        }

        deinit {
            umount2(path, Int32(MNT_DETACH))
            rmdir(path)
        }

        /// The bytes left for files.
        var freeBytes: Int {
            var info = statvfs()
            statvfs(path, &info)
            return Int(info.f_bavail) * Int(info.f_bsize)
        }

        /// Writes a filler file until at most `free` bytes are left (or the disk is full); returns its path.
        @discardableResult
        func fill(leaving free: Int = 0) -> String {
            fillers += 1
            let filler = path + "/filler-\(fillers)"
            let fd = open(filler, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            defer { close(fd) }
            let chunk = [UInt8](repeating: 0xA5, count: 4096)
            while freeBytes > free {
                let count = min(chunk.count, freeBytes - free)
                if chunk.withUnsafeBytes({ write(fd, $0.baseAddress, count) }) <= 0 { break }
            }
            return filler
        }
    }
#endif
