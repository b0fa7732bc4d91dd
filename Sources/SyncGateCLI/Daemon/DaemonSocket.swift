import Foundation
import SyncGateCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Unix-socket plumbing shared by the daemon and its clients: addresses, deadlines, whole lines. Paths
/// are in ``SystemBytes``' text form.
enum DaemonSocket {
    /// Why a socket operation failed, naming the path.
    struct Failure: Error, CustomStringConvertible {
        var description: String
        /// The `errno` of the call that failed, when one did.
        var code: Int32? = nil

        /// Whether the failure says that no daemon listens on the path: nothing is there
        /// (`ENOENT`), or nothing accepts (`ECONNREFUSED`, a socket left by a daemon that ended).
        var meansNoDaemon: Bool {
            code == ENOENT || code == ECONNREFUSED
        }
    }

    /// Why `path` cannot be a Unix socket's address (empty, or longer than `sun_path` holds), naming its
    /// length and the limit, or `nil` when it can.
    static func pathProblem(_ path: String) -> String? {
        let capacity = MemoryLayout.size(ofValue: sockaddr_un().sun_path)
        if path.isEmpty { return "the socket path is empty" }
        let length = SystemBytes.bytes(of: path).count
        guard length < capacity else {
            return "the socket path is too long for a Unix socket (\(length) bytes, at most "
                + "\(capacity - 1)): \(path); set SYNCGATE_SOCKET to a shorter one"
        }
        return nil
    }

    /// Fills a `sockaddr_un` for `path` (in ``SystemBytes``' text form: the bytes it stands for); `nil`
    /// when the path is empty or too long for one.
    static func address(_ path: String) -> sockaddr_un? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = SystemBytes.bytes(of: path)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in bytes.enumerated() { buffer[index] = byte }
            buffer[bytes.count] = 0
        }
        return address
    }

    /// A new stream socket, close-on-exec.
    static func makeSocket() throws(Failure) -> Int32 {
        #if canImport(Glibc)
            let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
            let descriptor = socket(AF_UNIX, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else {
            let code = errno
            throw Failure(description: "socket: \(SystemErrorText.message(code))", code: code)
        }
        return descriptor
    }

    /// Connects to `path`; throws naming the path and the reason.
    static func connect(to path: String) throws(Failure) -> Int32 {
        guard var address = address(path) else { throw Failure(description: pathProblem(path) ?? path) }
        let descriptor = try makeSocket()
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                systemConnect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            close(descriptor)
            throw Failure(description: "\(path): \(SystemErrorText.message(code))", code: code)
        }
        return descriptor
    }

    private static func systemConnect(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t)
        -> Int32
    {
        #if canImport(Glibc)
            Glibc.connect(descriptor, address, length)
        #else
            Darwin.connect(descriptor, address, length)
        #endif
    }

    /// Waits until `descriptor` is readable (or writable) or the deadline passes; false on timeout.
    static func wait(_ descriptor: Int32, writable: Bool = false, until deadline: ContinuousClock.Instant) -> Bool {
        while true {
            let left = deadline - .now
            guard left > .zero else { return false }
            let milliseconds = Int32(
                min(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1, 60_000))
            var entry = pollfd(fd: descriptor, events: Int16(writable ? POLLOUT : POLLIN), revents: 0)
            let result = poll(&entry, 1, milliseconds)
            if result > 0 { return true }
            if result < 0 && errno != EINTR { return true }
        }
    }

    /// Reads one line (without its newline) of at most `limit` bytes before `deadline`.
    ///
    /// It takes nothing from the socket past the newline (it peeks, then consumes the line), so the lines
    /// that follow on the connection are read by the next call.
    ///
    /// - Throws: ``Failure`` saying whether the line was too long, cut short or late.
    static func readLine(_ descriptor: Int32, limit: Int, until deadline: ContinuousClock.Instant) throws(Failure)
        -> [UInt8]
    {
        var line: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            guard wait(descriptor, until: deadline) else {
                throw Failure(description: "no complete request line within the time limit")
            }
            let peeked = buffer.withUnsafeMutableBytes {
                recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_PEEK))
            }
            if peeked < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw Failure(description: "read failed: \(SystemErrorText.message(errno))")
            }
            if peeked == 0 {
                throw Failure(description: "request cut short after \(line.count) bytes (no newline)")
            }
            let newline = buffer[..<peeked].firstIndex(of: UInt8(ascii: "\n"))
            // Consumes what was peeked, up to and with the newline: a stream socket has one reader here.
            let count = buffer.withUnsafeMutableBytes {
                recv(descriptor, $0.baseAddress, newline.map { $0 + 1 } ?? peeked, 0)
            }
            guard count > 0 else { throw Failure(description: "read failed: \(SystemErrorText.message(errno))") }
            if let newline, newline < count {
                line += buffer[..<newline]
                guard line.count < limit else { break }
                return line
            }
            line += buffer[..<count]
            if line.count >= limit { break }
        }
        throw Failure(description: "request of more than \(limit) bytes exceeds the limit")
    }

    #if canImport(Glibc)
        private static let noSignal = Int32(MSG_NOSIGNAL)
    #else
        private static let noSignal: Int32 = 0
    #endif

    /// Writes every byte before `deadline`; false when the peer is gone or too slow.
    @discardableResult
    static func writeAll(_ descriptor: Int32, _ bytes: [UInt8], until deadline: ContinuousClock.Instant) -> Bool {
        var offset = 0
        while offset < bytes.count {
            guard wait(descriptor, writable: true, until: deadline) else { return false }
            let written = bytes.withUnsafeBytes {
                send(descriptor, $0.baseAddress! + offset, $0.count - offset, noSignal)
            }
            if written < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return false
            }
            offset += written
        }
        return true
    }
}
