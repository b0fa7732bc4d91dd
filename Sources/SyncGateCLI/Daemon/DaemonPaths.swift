import SyncGateCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the daemon keeps its state and its socket.
///
/// * State: `$XDG_STATE_HOME/syncgate` (else `~/.local/state/syncgate`); for root `/var/lib/syncgate`.
/// * Socket: `$XDG_RUNTIME_DIR/syncgate/socket`; for root `/run/syncgate/socket`; without
///   `XDG_RUNTIME_DIR`, `/tmp/syncgate-UID/socket`.
///
/// `SYNCGATE_SOCKET` overrides the socket's path for the daemon and its clients alike.
///
/// The environment's values and the paths returned are in ``SystemBytes``' text form, so a variable
/// holding bytes that are not UTF-8 names exactly the directory it holds.
package enum DaemonPaths {
    /// The state directory for this user.
    package static func stateDirectory(environment: [String: String] = SystemBytes.environmentVariables()) -> String {
        if getuid() == 0 { return "/var/lib/syncgate" }
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/syncgate" }
        let home = environment["HOME"] ?? SystemBytes.userHomeDirectory() ?? "/"
        return home + "/.local/state/syncgate"
    }

    /// The socket's path for this user.
    package static func socketPath(environment: [String: String] = SystemBytes.environmentVariables()) -> String {
        if let path = environment["SYNCGATE_SOCKET"], !path.isEmpty { return path }
        if getuid() == 0 { return "/run/syncgate/socket" }
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") { return runtime + "/syncgate/socket" }
        return "/tmp/syncgate-\(getuid())/socket"
    }

    /// `path` with its symbolic links, `.` and `..` resolved (`realpath(3)`); `path` itself when that
    /// fails (it is missing, say). Both are in SystemBytes' text form: the bytes resolved are those `path`
    /// stands for, UTF-8 or not.
    package static func resolved(_ path: String) -> String {
        guard let resolved = SystemBytes.withCString(path, { realpath($0, nil) }) else { return path }
        defer { free(resolved) }
        return SystemBytes.text(ofCString: resolved)
    }

    /// The paths of the state directory `directory` that the daemon's file watcher leaves out of every
    /// watch: as given, made absolute from the working directory `workingDirectory`, and resolved
    /// (``resolved(_:)``), since a watched tree spells the directory as its own path does.
    package static func ignoredByWatches(stateDirectory directory: String, workingDirectory: String) -> [String] {
        let absolute = directory.hasPrefix("/") ? directory : workingDirectory + "/" + directory
        let resolved = resolved(absolute)
        return resolved == absolute ? [absolute] : [absolute, resolved]
    }

    /// Why `path`, an `--on-change` path, cannot be watched by the daemon whose state directory resolves
    /// to `stateDirectory`: it is that directory or lies inside it (its changes are the daemon's own
    /// writes, which no watch sees); `nil` when it can be. The path is compared as given and resolved.
    package static func watchProblem(_ path: String, stateDirectory: String) -> String? {
        func isInside(_ path: String) -> Bool {
            path == stateDirectory || path.hasPrefix(stateDirectory == "/" ? "/" : stateDirectory + "/")
        }
        guard isInside(path) || isInside(resolved(path)) else { return nil }
        return "the daemon's state directory \(stateDirectory) is never watched (its changes are the daemon's own)"
    }
}
