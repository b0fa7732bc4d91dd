import Foundation
import SyncGate

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A command started with `posix_spawnp`, reaped by `waitpid` on a dedicated thread (never on the
/// cooperative pool), and signalled only while it has not been reaped, so a signal never reaches a
/// recycled process id.
///
/// The child inherits stdin, stdout, stderr and the environment; the signals the tool ignores or
/// blocks (SIGINT, SIGTERM, …) are reset to their defaults in the child.
public final class ChildProcess: Sendable {
    /// Why a command could not be started.
    public struct SpawnError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The command's name.
        public var command: String
        /// The `errno` of `posix_spawnp`.
        public var code: Int32

        /// 127 when the command was not found, 126 when it could not be executed.
        public var exitCode: Int32 { code == ENOENT ? ExitCode.commandNotFound : ExitCode.cannotExecute }

        /// `ls: command not found`, or the system's explanation.
        public var description: String {
            code == ENOENT ? "\(command): command not found" : "\(command): \(String(cString: strerror(code)))"
        }
    }

    private struct State {
        var reaped = false
        var exitStatus: ChildExitStatus?
        var waiters: [CheckedContinuation<ChildExitStatus, Never>] = []
    }

    /// The process id.
    public let pid: pid_t
    private let state = LockedState(State())

    /// Starts `arguments[0]` (looked up in `PATH`) with the remaining arguments.
    ///
    /// - Throws: ``SpawnError`` when the command cannot be started.
    public init(arguments: [String]) throws(SpawnError) {
        precondition(!arguments.isEmpty, "ChildProcess needs a command")
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGQUIT, SIGHUP, SIGPIPE, SIGCHLD] {
            sigaddset(&defaults, signal)
        }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var spawned: pid_t = 0
        let result = posix_spawnp(&spawned, argv[0]!, nil, &attributes, argv, environ)
        guard result == 0 else { throw SpawnError(command: arguments[0], code: result) }
        let pid = spawned
        self.pid = pid
        let state = state
        Thread.detachNewThread {
            Self.reap(pid: pid, state: state)
        }
    }

    private static func reap(pid: pid_t, state: LockedState<State>) {
        SignalWatcher.blockWatchedSignals()
        // Wait for the exit without reaping, so `signal(_:)` can still tell the id is this child's.
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == -1 && errno == EINTR {}
        state.withLock { $0.reaped = true }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let exit = ChildExitStatus(waitStatus: status)
        let waiters = state.withLock { state in
            state.exitStatus = exit
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: exit) }
    }

    /// Waits until the process has ended and returns how; returns at once when it already has.
    ///
    /// Not cancellable: a caller that must stop the process sends it a signal and keeps waiting.
    public func exitStatus() async -> ChildExitStatus {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state -> ChildExitStatus? in
                if let exit = state.exitStatus { return exit }
                state.waiters.append(continuation)
                return nil
            }
            if let done { continuation.resume(returning: done) }
        }
    }

    /// Whether the process has ended.
    public var hasExited: Bool { state.withLock { $0.reaped } }

    /// Sends `signal` unless the process has already ended; returns whether it was sent.
    @discardableResult
    public func signal(_ signal: Int32) -> Bool {
        state.withLock { state in
            guard !state.reaped else { return false }
            return kill(pid, signal) == 0
        }
    }

    /// Sends SIGTERM now and SIGKILL after `gracePeriod` if the process is still running then.
    public func terminate(gracePeriod: Duration) {
        signal(SIGTERM)
        let (seconds, attoseconds) = gracePeriod.components
        let delay = Double(seconds) + Double(attoseconds) / 1e18
        DispatchQueue.global().asyncAfter(deadline: .now() + max(delay, 0)) { [self] in
            signal(SIGKILL)
        }
    }
}
