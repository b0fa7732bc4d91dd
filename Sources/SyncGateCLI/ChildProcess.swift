import Foundation
import SyncGate
import SyncGateCore

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
///
/// Started with a ``Redirection``, the command leads a process group of its own and the object tracks
/// the group, not only its leader: the leader's exit is reported at once (``exitStatus()``) but the
/// leader stays unreaped, holding the group's id, while what remains of the group is ended (SIGTERM,
/// then SIGKILL after ``Redirection/groupGrace``); only then is it reaped (``groupEnded()``). Until then
/// ``signal(_:)`` reaches every process of the group, even after the leader has exited.
///
/// Every command is spawned from the thread that later reaps it, which lives as long as the command, so
/// a death signal the command asks for (`PR_SET_PDEATHSIG`, tied to the thread that started it, which
/// ``JobLauncher`` arms) fires only when the whole process dies.
package final class ChildProcess: Sendable {
    /// Why a command could not be started.
    package struct SpawnError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The command's name.
        package var command: String
        /// The `errno` of `posix_spawnp`, or of entering ``directory``.
        package var code: Int32
        /// The working directory when it was the directory, not the command, that could not be used (it
        /// was removed, or is not searchable); `nil` otherwise.
        package var directory: String? = nil

        /// 127 when the command was not found, 126 when it (or its working directory) could not be used.
        package var exitCode: Int32 {
            code == ENOENT && directory == nil ? ExitCode.commandNotFound : ExitCode.cannotExecute
        }

        /// `ls: command not found`, the system's explanation, or `cannot enter the directory /srv/x (ls):
        /// No such file or directory`.
        package var description: String {
            if let directory {
                return "cannot enter the directory \(directory) (\(command)): \(SystemErrorText.message(code))"
            }
            // An empty name is shown quoted, as the one word it is.
            let shown = command.isEmpty ? "''" : command
            return code == ENOENT ? "\(shown): command not found" : "\(shown): \(SystemErrorText.message(code))"
        }
    }

    private struct State {
        /// Whether signals may still be sent: until the process (for a group, its last process) ended.
        var reaped = false
        var exitStatus: ChildExitStatus?
        var waiters: [CheckedContinuation<ChildExitStatus, Never>] = []
        /// The processes of the group that outlived SIGKILL, once the group has ended.
        var groupOutliving: [pid_t]?
        var groupWaiters: [CheckedContinuation<[pid_t], Never>] = []
    }

    /// The process id.
    package let pid: pid_t
    /// Whether the process leads a process group of its own, which signals go to.
    private let ownsGroup: Bool
    private let state: LockedState<State>

    /// Starts `arguments[0]` (looked up in `PATH`) with the remaining arguments, in the tool's process
    /// group.
    ///
    /// With a `launcher` (this tool's executable), the command is started through ``JobLauncher``, which
    /// arms SIGKILL for it when the tool's process ends, however it ends; the command is looked up before
    /// the launcher starts, so a missing one is reported as without it.
    ///
    /// - Throws: ``SpawnError`` when the command cannot be started.
    package convenience init(arguments: [String], launcher: String? = nil) throws(SpawnError) {
        try self.init(arguments: arguments, redirection: nil, launcher: launcher)
    }

    /// Where a command started by the daemon reads and writes, and what it sees.
    package struct Redirection: Sendable {
        /// The environment, replacing the tool's own: names and values in ``SystemBytes``' text form,
        /// each passed as the bytes it stands for.
        package var environment: [String: String]
        /// The working directory.
        package var workingDirectory: String
        /// The descriptor that becomes stdout.
        package var standardOutput: Int32
        /// The descriptor that becomes stderr.
        package var standardError: Int32
        /// How long the processes left in the command's group after it exits get between SIGTERM and
        /// SIGKILL.
        package var groupGrace: Duration
        /// A descriptor that becomes descriptor 3 of the child (``JobLauncher/launchGate``), or `nil` for
        /// none: the child gets 0, 1 and 2 only.
        package var launchGate: Int32?

        /// Creates a redirection; stdin is `/dev/null`.
        package init(
            environment: [String: String], workingDirectory: String, standardOutput: Int32, standardError: Int32,
            groupGrace: Duration = .seconds(5), launchGate: Int32? = nil
        ) {
            self.environment = environment
            self.workingDirectory = workingDirectory
            self.standardOutput = standardOutput
            self.standardError = standardError
            self.groupGrace = groupGrace
            self.launchGate = launchGate
        }
    }

    /// Starts `arguments[0]` (looked up in the `PATH` of the redirection's environment, or the tool's)
    /// with stdin `/dev/null`, stdout and stderr on the given descriptors, in the given directory, as the
    /// leader of a process group of its own; without a redirection, as ``init(arguments:launcher:)``.
    ///
    /// - Throws: ``SpawnError`` when the command cannot be started.
    package convenience init(arguments: [String], redirection: Redirection?) throws(SpawnError) {
        try self.init(arguments: arguments, redirection: redirection, launcher: nil)
    }

    private init(arguments: [String], redirection: Redirection?, launcher: String?) throws(SpawnError) {
        precondition(!arguments.isEmpty, "ChildProcess needs a command")
        // An empty name is no command; `posix_spawnp` would report a directory of the search path.
        if arguments[0].isEmpty { throw SpawnError(command: "", code: ENOENT) }
        let state = LockedState(State())
        self.state = state
        ownsGroup = redirection != nil
        guard let redirection else {
            var spawned = arguments
            if let launcher {
                let path = try Self.resolveInToolPath(arguments[0])
                spawned = JobLauncher.commandArguments(
                    executable: launcher, parent: getpid(), path: path, command: arguments)
            }
            do {
                pid = try Self.spawnFromReaper(spawned, redirection: nil) { pid in Self.reap(pid: pid, state: state) }
            } catch {
                // Through the launcher, what failed to start was the launcher: name the command.
                throw SpawnError(command: arguments[0], code: error.code)
            }
            return
        }
        pid = try Self.spawnFromReaper(arguments, redirection: redirection) { pid in
            Self.reapGroup(leader: pid, grace: redirection.groupGrace, state: state)
        }
    }

    /// Spawns on a new thread that then reaps the command (`reap`), and so lives as long as it.
    private static func spawnFromReaper(
        _ arguments: [String], redirection: Redirection?, reap: @escaping @Sendable (pid_t) -> Void
    ) throws(SpawnError) -> pid_t {
        let spawned = LockedState<Result<pid_t, SpawnError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            SignalWatcher.blockWatchedSignals()
            let result = Self.spawn(arguments, redirection: redirection)
            spawned.withLock { $0 = result }
            done.signal()
            guard case .success(let pid) = result else { return }
            reap(pid)
        }
        done.wait()
        return try spawned.withLock { $0! }.get()
    }

    /// The path `posix_spawnp` would start for `command` from the tool's `PATH`, or the error it would
    /// report: `ENOENT` when no directory has it, the error of `access` for a path.
    private static func resolveInToolPath(_ command: String) throws(SpawnError) -> String {
        let searchPath = SystemBytes.environment("PATH") ?? "/bin:/usr/bin"
        guard let path = resolve(command, searchPath: searchPath) else {
            throw SpawnError(command: command, code: ENOENT)
        }
        guard SystemBytes.withCString(path, { access($0, X_OK) }) == 0 else {
            throw SpawnError(command: command, code: errno)
        }
        return path
    }

    /// The path `command` runs from: itself when it holds a `/`, else the first executable file of that
    /// name in the directories of `searchPath`; `nil` when there is none.
    ///
    /// An empty name is no command (a shell says it is not found); a directory of the name is passed
    /// over, as a shell passes it over.
    static func resolve(_ command: String, searchPath: String) -> String? {
        if command.isEmpty { return nil }
        if command.contains("/") { return command }
        return searchPath.split(separator: ":").map { "\($0)/\(command)" }.first { candidate in
            SystemBytes.withCString(candidate) { path in
                var info = stat()
                return access(path, X_OK) == 0 && stat(path, &info) == 0 && info.st_mode & S_IFMT != S_IFDIR
            }
        }
    }

    private static func spawn(_ arguments: [String], redirection: Redirection?) -> Result<pid_t, SpawnError> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let redirection {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_adddup2(&actions, redirection.standardOutput, 1)
            posix_spawn_file_actions_adddup2(&actions, redirection.standardError, 2)
            if let gate = redirection.launchGate {
                posix_spawn_file_actions_adddup2(&actions, gate, JobLauncher.launchGate)
            }
            Self.addChangeDirectory(&actions, redirection.workingDirectory)
        }
        var flags = Int32(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK)
        // Only 0, 1 and 2 (and the launch gate): a descriptor of the tool (or of an app using this type)
        // stays with it.
        let kept = redirection?.launchGate == nil ? 3 : JobLauncher.launchGate + 1
        SpawnInheritance.closeOthers(&actions, flags: &flags, kept: kept)
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

        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { SystemBytes.cString($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var spawned: pid_t = 0
        let environment: [UnsafeMutablePointer<CChar>?]? = redirection.map { redirection in
            redirection.environment.sorted { $0.key < $1.key }.map { SystemBytes.cString("\($0.key)=\($0.value)") }
                + [nil]
        }
        defer { for pointer in environment ?? [] { free(pointer) } }
        var path = arguments[0]
        if let redirection {
            // posix_spawnp searches the tool's PATH; a command of the daemon searches its own.
            path = resolve(path, searchPath: redirection.environment["PATH"] ?? "/usr/bin:/bin") ?? path
        }
        let result =
            if let environment {
                SystemBytes.withCString(path) { posix_spawnp(&spawned, $0, &actions, &attributes, argv, environment) }
            } else {
                posix_spawnp(&spawned, argv[0]!, &actions, &attributes, argv, environ)
            }
        guard result == 0 else {
            // posix_spawn fails alike when the directory cannot be entered: say which it was.
            if let directory = redirection?.workingDirectory, let problem = Self.enterProblem(directory) {
                return .failure(SpawnError(command: arguments[0], code: problem, directory: directory))
            }
            return .failure(SpawnError(command: arguments[0], code: result))
        }
        return .success(spawned)
    }

    /// Why a process could not make `directory` its working directory (the `errno` of `stat`, `ENOTDIR`,
    /// or `EACCES` when it is not searchable); `nil` when it could.
    static func enterProblem(_ directory: String) -> Int32? {
        SystemBytes.withCString(directory) { path in
            var information = stat()
            guard stat(path, &information) == 0 else { return errno }
            guard information.st_mode & S_IFMT == S_IFDIR else { return ENOTDIR }
            return access(path, X_OK) == 0 ? nil : EACCES
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
        // addchdir copies the path, so it may be released once the call returns.
        _ = SystemBytes.withCString(path) { path in withUnsafeMutablePointer(to: &actions) { function($0, path) } }
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

    /// Waits for the group's leader to exit and reports it, ends what remains of the group, then reaps
    /// the leader (whose id kept the group's until then) and reports the group's end.
    private static func reapGroup(leader pid: pid_t, grace: Duration, state: LockedState<State>) {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == -1 && errno == EINTR {}
        let exit = exitStatus(of: info)
        let waiters = state.withLock { state in
            state.exitStatus = exit
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: exit) }
        let outliving = ProcessGroup(id: pid).end(gracePeriod: grace)
        let groupWaiters = state.withLock { state in
            state.reaped = true
            state.groupOutliving = outliving
            defer { state.groupWaiters = [] }
            return state.groupWaiters
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        for waiter in groupWaiters { waiter.resume(returning: outliving) }
    }

    /// How the process `waitid` reported ended: `si_code` is CLD_EXITED (1) with the exit status, or
    /// CLD_KILLED (2) / CLD_DUMPED (3) with the signal, in `si_status`.
    private static func exitStatus(of info: siginfo_t) -> ChildExitStatus {
        #if canImport(Glibc)
            let status = info._sifields._sigchld.si_status
        #else
            let status = info.si_status
        #endif
        return info.si_code == 1 ? .exited(status) : .signaled(status)
    }

    /// Waits until the process has ended and returns how; returns at once when it already has.
    ///
    /// Not cancellable: a caller that must stop the process sends it a signal and keeps waiting.
    package func exitStatus() async -> ChildExitStatus {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state -> ChildExitStatus? in
                if let exit = state.exitStatus { return exit }
                state.waiters.append(continuation)
                return nil
            }
            if let done { continuation.resume(returning: done) }
        }
    }

    /// Waits until the process group of a command started with a ``Redirection`` has ended (its leader
    /// exited, the rest got SIGTERM, then SIGKILL after the redirection's group grace) and its leader
    /// has been reaped; returns the processes that still lived ``ProcessGroup/killDeadline`` after
    /// SIGKILL (normally none). For a command without a redirection, returns once it has exited.
    ///
    /// Not cancellable, like ``exitStatus()``.
    package func groupEnded() async -> [pid_t] {
        guard ownsGroup else {
            _ = await exitStatus()
            return []
        }
        return await withCheckedContinuation { continuation in
            let done = state.withLock { state -> [pid_t]? in
                if let outliving = state.groupOutliving { return outliving }
                state.groupWaiters.append(continuation)
                return nil
            }
            if let done { continuation.resume(returning: done) }
        }
    }

    /// Whether the process has ended.
    package var hasExited: Bool { state.withLock { $0.exitStatus != nil || $0.reaped } }

    /// Sends `signal` unless the process has already ended (to its process group when it was started
    /// with a ``Redirection``, until the whole group has ended); returns whether it was sent.
    @discardableResult
    package func signal(_ signal: Int32) -> Bool {
        state.withLock { state in
            guard !state.reaped else { return false }
            // The group's id stays taken while its leader is not reaped, and the leader is reaped only
            // after the group has ended.
            return kill(ownsGroup ? -pid : pid, signal) == 0
        }
    }

    /// Sends SIGTERM now and SIGKILL after `gracePeriod` if the process (for a command started with a
    /// ``Redirection``, any process of its group) is still running then.
    package func terminate(gracePeriod: Duration) {
        signal(SIGTERM)
        // A stopped process of the group would not see SIGTERM before SIGKILL.
        if ownsGroup { signal(SIGCONT) }
        let (seconds, attoseconds) = gracePeriod.components
        let delay = Double(seconds) + Double(attoseconds) / 1e18
        DispatchQueue.global().asyncAfter(deadline: .now() + max(delay, 0)) { [self] in
            signal(SIGKILL)
        }
    }
}
