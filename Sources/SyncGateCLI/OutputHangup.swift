import SyncGate

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
    import Foundation
#endif

/// Tells when nobody reads the tool's output any more: the reader of its pipe exited (`syncgate watch |
/// head -1`), or its terminal hung up.
///
/// A command that prints only when something changes would otherwise learn it at its next write (and
/// die of `SIGPIPE` then), which may be hours later. A thread of its own blocks in `poll` on the
/// descriptor, asking for no event: `poll` still reports an error or a hang-up (the write end of a pipe
/// whose readers are gone reports `POLLERR`), and nothing else wakes it, so an idle command makes no
/// wake-up. A regular file or `/dev/null` never reports one.
enum OutputHangup {
    /// Returns once `descriptor` reports an error or a hang-up: `true`; `false` when the calling task is
    /// cancelled first (the thread then stays blocked until the process exits, which follows).
    static func wait(on descriptor: Int32 = STDOUT_FILENO) async -> Bool {
        let waiter = LockedState<CheckedContinuation<Bool, Never>?>(nil)
        let resume: @Sendable (Bool) -> Void = { value in
            waiter.withLock { $0.take() }?.resume(returning: value)
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                waiter.withLock { $0 = continuation }
                if Task.isCancelled {
                    resume(false)
                    return
                }
                start {
                    var watched = pollfd(fd: descriptor, events: 0, revents: 0)
                    while true {
                        watched.revents = 0
                        let ready = poll(&watched, 1, -1)
                        if ready < 0 && errno == EINTR { continue }
                        // POLLNVAL (the descriptor is not open) counts: nothing reads what is written there.
                        if ready != 0 { break }
                    }
                    resume(true)
                }
            }
        } onCancel: {
            resume(false)
        }
    }

    private static func start(_ body: @escaping @Sendable () -> Void) {
        #if os(Linux)
            if case .success(let thread) = DedicatedThread.start(name: "sg-output", body) {
                pthread_detach(thread)
            }
        #else
            Thread.detachNewThread(body)
        #endif
    }
}
