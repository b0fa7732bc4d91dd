import Foundation
import SyncGateCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The few steps between the daemon's spawn and a job's command that `posix_spawn` cannot take: the
/// daemon starts its own executable as `syncgate --syncgate-launch-job DAEMON_PID PATH ARG0 ARGS…`, which
/// asks the kernel for SIGKILL when the thread that started it ends (`PR_SET_PDEATHSIG`), checks that
/// its parent is still the daemon (so a daemon that died meanwhile is not missed), waits at its start
/// gate until the daemon has recorded the run (``launchGate``), and replaces itself with the command. The
/// process id, the start time, the process group (which `posix_spawn` already made its own) and the
/// descriptors 0, 1 and 2 stay those of the command.
///
/// The gate orders the record before the command: a daemon killed at any moment leaves either no
/// command running or one its successor finds recorded (`RunningCommands`) and stops before it runs the
/// job again.
///
/// `syncgate run` starts its command the same way, as `syncgate --syncgate-launch-command RUN_PID PATH
/// ARG0 ARGS…`, without the gate (it records nothing): a `run` killed even by SIGKILL takes its command
/// with it.
///
/// The death signal is not inherited by the command's children; the daemon reaches them through the
/// process group instead, and after a crash by stopping the group of each command that outlived it.
package enum JobLauncher {
    /// The hidden first argument that selects the launcher for a daemon's job (with the launch gate).
    package static let marker = "--syncgate-launch-job"
    /// The hidden first argument that selects the launcher for `run`'s command (no launch gate).
    package static let commandMarker = "--syncgate-launch-command"

    /// The launcher's descriptor 3: the read end of a pipe whose write end the daemon holds. The daemon
    /// writes one byte once it has recorded the run; the launcher closes the descriptor and becomes the
    /// command. An end of file (the daemon died before it wrote) or any error ends the launcher with 125
    /// and the command never runs.
    package static let launchGate: Int32 = 3

    /// The arguments that start `command` (already resolved to `path`) through `executable`, for the
    /// daemon whose process id is `daemon`.
    static func arguments(executable: String, daemon: pid_t, path: String, command: [String]) -> [String] {
        [executable, marker, String(daemon), path] + command
    }

    /// The arguments that start `command` (already resolved to `path`) through `executable` for the
    /// process `parent` (a `syncgate run`), with no launch gate.
    static func commandArguments(executable: String, parent: pid_t, path: String, command: [String]) -> [String] {
        [executable, commandMarker, String(parent), path] + command
    }

    /// The launcher's arguments after either marker: the parent's id, the path, the command, and whether
    /// a launch gate is to be passed; `nil` when they are not that.
    static func parse(_ arguments: [String]) -> (parent: pid_t, path: String, command: [String], gated: Bool)? {
        guard arguments.count >= 5, selects(arguments), let parent = pid_t(arguments[2]), parent > 0 else {
            return nil
        }
        return (parent, arguments[3], Array(arguments[4...]), arguments[1] == marker)
    }

    /// Whether `arguments` (the whole command line) selects the launcher: either marker comes first.
    private static func selects(_ arguments: [String]) -> Bool {
        arguments.count > 1 && (arguments[1] == marker || arguments[1] == commandMarker)
    }

    /// Becomes the command when `arguments` (the whole command line, the program first) selects the
    /// launcher, and returns at once otherwise. Call it first thing in `main`, before any thread starts.
    ///
    /// Never returns when selected: it `exec`s the command, or exits with 126 (127 when the command does
    /// not exist) after a one-line message on stderr, or with 125 when its parent is no longer the one
    /// named or the launch gate (for a daemon's job) closes without opening.
    package static func runIfRequested(_ arguments: [String]) {
        guard selects(arguments) else { return }
        guard let (parent, path, command, gated) = parse(arguments) else {
            Output.errorLine("syncgate: \(arguments[1]) is internal to syncgate")
            exit(ExitCode.usage)
        }
        var none = sigset_t()
        sigemptyset(&none)
        sigprocmask(SIG_SETMASK, &none, nil)
        #if os(Linux)
            if let setDeathSignal = Self.setDeathSignal {
                // PR_SET_PDEATHSIG (1) of <linux/prctl.h>.
                _ = setDeathSignal(1, UInt(SIGKILL), 0, 0, 0)
            }
        #endif
        // The parent died before the death signal was armed: this run is not wanted.
        guard getppid() == parent else { exit(125) }
        guard !gated || passLaunchGate() else { exit(125) }
        let argv: [UnsafeMutablePointer<CChar>?] = command.map { SystemBytes.cString($0) } + [nil]
        SystemBytes.withCString(path) { _ = execv($0, argv) }
        let code = errno
        Output.errorLine("syncgate: \(command[0]): \(SystemErrorText.message(code))")
        exit(code == ENOENT ? ExitCode.commandNotFound : ExitCode.cannotExecute)
    }

    /// Waits until the daemon opens the launch gate (one byte) and closes it; false when it closed without
    /// opening or cannot be read.
    private static func passLaunchGate() -> Bool {
        var byte: UInt8 = 0
        var count: Int
        repeat { count = read(launchGate, &byte, 1) } while count < 0 && errno == EINTR
        close(launchGate)
        return count == 1
    }

    #if os(Linux)
        private typealias SetDeathSignal = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32

        /// `prctl`, which Swift does not import (it is variadic in C), looked up at run time.
        private static let setDeathSignal: SetDeathSignal? = {
            let everywhere = UnsafeMutableRawPointer(bitPattern: 0)  // RTLD_DEFAULT
            guard let symbol = dlsym(everywhere, "prctl") else { return nil }
            return unsafeBitCast(symbol, to: SetDeathSignal.self)
        }()
    #endif
}
