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
/// The child inherits stdin, stdout, stderr and the environment, and no other descriptor (see
/// `SpawnInheritance`); the signals the tool ignores or blocks (SIGINT, SIGTERM, …) are reset to their
/// defaults in the child.
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
    /// Whether the process leads a process group of its own, which signals go to.
    private let ownsGroup: Bool
    private let state = LockedState(State())

    /// Starts `arguments[0]` (looked up in `PATH`) with the remaining arguments.
    ///
    /// - Throws: ``SpawnError`` when the command cannot be started.
    public convenience init(arguments: [String]) throws(SpawnError) {
        try self.init(arguments: arguments, redirection: nil)
    }

    /// Where a command started by the daemon reads and writes, and what it sees.
    public struct Redirection: Sendable {
        /// The environment, replacing the tool's own.
        public var environment: [String: String]
        /// The working directory.
        public var workingDirectory: String
        /// The descriptor that becomes stdout.
        public var standardOutput: Int32
        /// The descriptor that becomes stderr.
        public var standardError: Int32

        /// Creates a redirection; stdin is `/dev/null`.
        public init(
            environment: [String: String], workingDirectory: String, standardOutput: Int32, standardError: Int32
        ) {
            self.environment = environment
            self.workingDirectory = workingDirectory
            self.standardOutput = standardOutput
            self.standardError = standardError
        }
    }

    /// Starts `arguments[0]` (looked up in the `PATH` of the redirection's environment, or the tool's)
    /// with stdin `/dev/null`, stdout and stderr on the given descriptors, in the given directory, as the
    /// leader of a process group of its own; without a redirection, as ``init(arguments:)``.
    ///
    /// - Throws: ``SpawnError`` when the command cannot be started.
    public init(arguments: [String], redirection: Redirection?) throws(SpawnError) {
        precondition(!arguments.isEmpty, "ChildProcess needs a command")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let redirection {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_adddup2(&actions, redirection.standardOutput, 1)
            posix_spawn_file_actions_adddup2(&actions, redirection.standardError, 2)
            Self.addChangeDirectory(&actions, redirection.workingDirectory)
        }
        var flags = Int32(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK)
        // Only 0, 1 and 2: a descriptor of the tool (or of an app using this type) stays with it.
        SpawnInheritance.closeOthers(&actions, flags: &flags)
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
        if redirection != nil {
            // Its own process group, so signals reach the processes it starts too.
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= Int32(POSIX_SPAWN_SETPGROUP)
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var spawned: pid_t = 0
        let environment: [UnsafeMutablePointer<CChar>?]? = redirection.map { redirection in
            redirection.environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        }
        defer { for pointer in environment ?? [] { free(pointer) } }
        var path = arguments[0]
        if let redirection, !path.contains("/") {
            // posix_spawnp searches the tool's PATH; a command of the daemon searches its own.
            let directories = (redirection.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            path = directories.map { "\($0)/\(path)" }.first { access($0, X_OK) == 0 } ?? path
        }
        let result =
            if let environment {
                posix_spawnp(&spawned, path, &actions, &attributes, argv, environment)
            } else {
                posix_spawnp(&spawned, argv[0]!, &actions, &attributes, argv, environ)
            }
        guard result == 0 else { throw SpawnError(command: arguments[0], code: result) }
        let pid = spawned
        self.pid = pid
        ownsGroup = redirection != nil
        let state = state
        Thread.detachNewThread {
            Self.reap(pid: pid, state: state)
        }
    }

    /// `posix_spawn_file_actions_addchdir_np` (glibc 2.29+, macOS 10.15+), looked up at run time since
    /// Glibc's Swift module does not export it.
    private static func addChangeDirectory(_ actions: inout posix_spawn_file_actions_t, _ path: String) {
        typealias AddChangeDirectory =
            @convention(c) (
                UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>
            ) -> Int32
        #if canImport(Glibc)
            let everywhere = UnsafeMutableRawPointer(bitPattern: 0)  // RTLD_DEFAULT
        #else
            let everywhere = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
        #endif
        guard let symbol = dlsym(everywhere, "posix_spawn_file_actions_addchdir_np") else {
            return
        }
        let function = unsafeBitCast(symbol, to: AddChangeDirectory.self)
        _ = withUnsafeMutablePointer(to: &actions) { function($0, path) }
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

    /// Sends `signal` unless the process has already ended (to its process group when it was started
    /// with a ``Redirection``); returns whether it was sent.
    @discardableResult
    public func signal(_ signal: Int32) -> Bool {
        state.withLock { state in
            guard !state.reaped else { return false }
            // The group's id stays taken while its leader is not reaped.
            return kill(ownsGroup ? -pid : pid, signal) == 0
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
