#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Keeps a process started with `posix_spawn` from inheriting descriptors it was not given.
///
/// A descriptor without close-on-exec — one a library opened, or one caught between `pipe()` and
/// `fcntl(FD_CLOEXEC)` on another thread — is otherwise inherited by every command spawned meanwhile, and
/// by everything that command starts. A pipe's reader then sees no end of file while such a process
/// lives, long after the writer it was made for has exited.
package enum SpawnInheritance {
    /// Adds "close every descriptor from `kept` up" to `actions`, after the redirections added so far:
    /// by default everything but 0, 1 and 2.
    ///
    /// Uses `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34 and later), looked up at run time
    /// since Glibc's Swift module does not export it. On Apple platforms, sets
    /// `POSIX_SPAWN_CLOEXEC_DEFAULT` in `flags` instead, with an explicit inheritance of the descriptors
    /// below `kept`. On a glibc too old to have the call, the child inherits as before.
    package static func closeOthers(
        _ actions: inout posix_spawn_file_actions_t, flags: inout Int32, kept: Int32 = 3
    ) {
        #if canImport(Glibc)
            typealias AddCloseFrom =
                @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
            guard let function = UnsafeRawPointer(bitPattern: addCloseFrom) else { return }
            let call = unsafeBitCast(function, to: AddCloseFrom.self)
            _ = withUnsafeMutablePointer(to: &actions) { call($0, kept) }
        #else
            for descriptor: Int32 in 0..<kept {
                posix_spawn_file_actions_addinherit_np(&actions, descriptor)
            }
            flags |= Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
        #endif
    }

    #if canImport(Glibc)
        /// The address of `posix_spawn_file_actions_addclosefrom_np`, or 0 when glibc lacks it.
        private static let addCloseFrom: Int = {
            let everywhere = UnsafeMutableRawPointer(bitPattern: 0)  // RTLD_DEFAULT
            return Int(bitPattern: dlsym(everywhere, "posix_spawn_file_actions_addclosefrom_np"))
        }()
    #endif
}
