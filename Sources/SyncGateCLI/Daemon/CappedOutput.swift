import Foundation
import SyncGate
import SyncGateCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A pipe whose reading end is copied to a file, up to a byte limit, on a thread of its own.
///
/// The command writes to ``writeEnd``; once the limit is reached, the rest is read and dropped (so the
/// command never blocks on a full pipe) and a note is written at the end of the file. The copying ends
/// at the end of file, or within ``abandonLatency`` of ``abandon()`` when a process that escaped the
/// job still holds the writing end; either way the thread ends and both descriptors are closed.
final class CappedOutput: Sendable {
    /// The descriptor to hand to the command as stdout or stderr.
    let writeEnd: Int32
    private let done = DispatchSemaphore(value: 0)
    private let abandoned = LockedState(false)
    /// How long an idle reader waits before it checks whether it was abandoned, in milliseconds.
    static let abandonLatency: Int32 = 1000

    /// Opens the file (mode 0600, truncated) and the pipe, and starts copying.
    init(path: String, limit: Int) throws {
        let file = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard file >= 0 else {
            throw DaemonProtocolError("cannot open \(path): \(SystemErrorText.described(errno))")
        }
        guard let pipe = CloseOnExecPipe.make() else {
            let failure = SystemErrorText.described(errno)
            close(file)
            throw DaemonProtocolError("cannot create a pipe: \(failure)")
        }
        writeEnd = pipe.write
        let readEnd = pipe.read
        let done = done
        let abandoned = abandoned
        Thread.detachNewThread {
            SignalWatcher.blockWatchedSignals()
            var kept = 0
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while !abandoned.withLock({ $0 }) {
                var entry = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
                let ready = poll(&entry, 1, Self.abandonLatency)
                if ready == 0 || (ready < 0 && errno == EINTR) { continue }
                let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                let keep = min(count, limit - kept)
                if keep > 0 {
                    _ = buffer.withUnsafeBytes { write(file, $0.baseAddress, keep) }
                    kept += keep
                    if kept == limit {
                        let note = Array("\n[syncgate: output cut at \(limit) bytes]\n".utf8)
                        _ = note.withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
                    }
                }
            }
            close(readEnd)
            close(file)
            done.signal()
        }
    }

    /// Closes the daemon's copy of the writing end, once the command has it.
    func closeWriteEnd() {
        close(writeEnd)
    }

    /// Waits until the command and every process it left holding the pipe have closed it, at most
    /// `deadline`.
    func finish(before deadline: DispatchTime) {
        _ = done.wait(timeout: deadline)
    }

    /// Stops copying even though a process still holds the writing end: what it writes from now on is
    /// lost, and the reader's descriptors are closed within ``abandonLatency``.
    func abandon() {
        abandoned.withLock { $0 = true }
    }
}
