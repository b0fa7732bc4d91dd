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
/// command never blocks on a full pipe) and a note is written at the end of the file. A write to the
/// file that fails (a full disk, an I/O error) ends the writing the same way: the rest is read and
/// dropped, a note naming the error is tried at the end of the file (`[syncgate: output cut: cannot
/// write: ERROR]`, lost too when the disk is full), and ``writeFailure`` says why. The copying ends
/// at the end of file, or, when a process that escaped the job still holds the writing end, at the
/// deadline given to ``finish(before:)`` (within ``abandonLatency`` of it); either way the thread ends
/// and both descriptors are closed. Waiting for that end suspends the waiting task: no thread of the
/// caller's executor is held.
final class CappedOutput: Sendable {
    /// The descriptor to hand to the command as stdout or stderr.
    let writeEnd: Int32
    /// Whether ``closeWriteEnd()`` has closed ``writeEnd``: a descriptor number is closed once, never
    /// again after another thread may have reused it.
    private let writeEndClosed = LockedState(false)
    private let copying = LockedState(Copying())
    /// The longest a reader waits in one `poll` before it looks at the deadline again, in milliseconds.
    static let abandonLatency: Int32 = 1000
    /// How many reads past the deadline copy what the pipe already holds, at most (64 KiB each).
    static let finalReads = 16

    /// Where the copying stands: when it must stop, whether it has, and who waits for that.
    private struct Copying {
        /// When the copying stops even though the writing end is still held; `nil` until a wait sets it.
        var deadline: DispatchTime?
        var ended = false
        /// Why a write to the file failed, which ended the writing; `nil` while every write succeeded.
        var writeFailure: String?
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    /// Opens the file (mode 0600, truncated) and the pipe, and starts copying.
    init(path: String, limit: Int) throws {
        let file = SystemBytes.withCString(path) { open($0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600) }
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
        let copying = copying
        Thread.detachNewThread {
            SignalWatcher.blockWatchedSignals()
            var kept = 0
            var buffer = [UInt8](repeating: 0, count: 65_536)
            // Past the deadline, what is already in the pipe is still copied, in at most `finalReads` reads.
            var finalReads = 0
            while true {
                var timeout = Self.abandonLatency
                if finalReads > 0 {
                    timeout = 0
                } else if let deadline = copying.withLock({ $0.deadline }) {
                    let now = DispatchTime.now()
                    if now >= deadline {
                        timeout = 0
                    } else {
                        let left = (deadline.uptimeNanoseconds - now.uptimeNanoseconds) / 1_000_000 + 1
                        timeout = Int32(min(UInt64(timeout), left))
                    }
                }
                if timeout == 0 {
                    finalReads += 1
                    if finalReads > Self.finalReads { break }
                }
                var entry = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
                let ready = poll(&entry, 1, timeout)
                if ready == 0 && timeout == 0 { break }
                if ready == 0 || (ready < 0 && errno == EINTR) { continue }
                let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                let keep = min(count, limit - kept)
                guard keep > 0 else { continue }
                if let failure = RunLog.writeAll(file, buffer[..<keep]) {
                    // The writing ends; the rest is read and dropped. Best effort: on a full disk the note
                    // is lost too, and `writeFailure` tells.
                    kept = limit
                    copying.withLock { $0.writeFailure = failure }
                    _ = RunLog.writeAll(file, Array("\n[syncgate: output cut: cannot write: \(failure)]\n".utf8))
                    continue
                }
                kept += keep
                if kept == limit {
                    let note = Array("\n[syncgate: output cut at \(limit) bytes]\n".utf8)
                    if let failure = RunLog.writeAll(file, note) { copying.withLock { $0.writeFailure = failure } }
                }
            }
            close(readEnd)
            close(file)
            let waiters = copying.withLock { copying in
                copying.ended = true
                defer { copying.waiters = [] }
                return copying.waiters
            }
            for waiter in waiters { waiter.resume() }
        }
    }

    /// Why a write to the file failed (the output kept stops there), or why the note of the limit could
    /// not be written; `nil` when every write succeeded. Final once ``finish(before:)`` has returned.
    var writeFailure: String? {
        copying.withLock { $0.writeFailure }
    }

    /// Closes the daemon's copy of the writing end, once the command has it; does nothing when called
    /// again.
    func closeWriteEnd() {
        let first = writeEndClosed.withLock { closed in
            defer { closed = true }
            return !closed
        }
        if first { close(writeEnd) }
    }

    /// Waits until the command and every process it left holding the pipe have closed it, or until
    /// `deadline`, after which the copying stops (what is written later is lost) and the descriptors are
    /// closed; returns once they are. The calling task is suspended meanwhile, its thread free.
    ///
    /// The earliest deadline of several waits counts.
    func finish(before deadline: DispatchTime) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ended = copying.withLock { copying in
                if copying.ended { return true }
                copying.deadline = min(copying.deadline ?? deadline, deadline)
                copying.waiters.append(continuation)
                return false
            }
            if ended { continuation.resume() }
        }
    }
}
