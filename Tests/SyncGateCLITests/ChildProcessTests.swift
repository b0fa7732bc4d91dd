#if os(Linux)
    import Foundation
    import SyncGateCLI
    import Testing

    /// What a command started by `syncgate run` or the daemon inherits from the process that starts it.
    @Suite(.timeLimit(.minutes(1)))
    struct ChildProcessTests {
        /// A descriptor of the starting process without close-on-exec (a library's, or a pipe caught between
        /// `pipe()` and `fcntl` on another thread) stays with it: a command that inherited a pipe would keep
        /// that pipe's reader waiting for an end of file for as long as the command, or anything it
        /// starts, lives. Run with and without the daemon's redirection.
        @Test(arguments: [false, true])
        func aCommandGetsNoDescriptorBeyondTheStandardThree(redirected: Bool) async throws {
            let stray = open("/dev/null", O_RDONLY)
            try #require(stray > 2)
            defer { close(stray) }
            let output = NSTemporaryDirectory() + "syncgate-child-\(UUID().uuidString).out"
            defer { unlink(output) }
            let file = open(output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            try #require(file >= 0)
            defer { close(file) }
            let redirection = ChildProcess.Redirection(
                environment: ProcessInfo.processInfo.environment, workingDirectory: "/", standardOutput: file,
                standardError: file)
            let child = try ChildProcess(
                arguments: ["sh", "-c", "[ ! -e /proc/self/fd/\(stray) ] && [ -e /proc/self/fd/2 ]"],
                redirection: redirected ? redirection : nil)
            #expect(await child.exitStatus() == .exited(0))
        }
    }
#endif
