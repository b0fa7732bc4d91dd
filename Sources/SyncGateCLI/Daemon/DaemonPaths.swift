import Foundation

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
package enum DaemonPaths {
    /// The state directory for this user.
    package static func stateDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if getuid() == 0 { return "/var/lib/syncgate" }
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/syncgate" }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return home + "/.local/state/syncgate"
    }

    /// The socket's path for this user.
    package static func socketPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let path = environment["SYNCGATE_SOCKET"], !path.isEmpty { return path }
        if getuid() == 0 { return "/run/syncgate/socket" }
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") { return runtime + "/syncgate/socket" }
        return "/tmp/syncgate-\(getuid())/socket"
    }
}
