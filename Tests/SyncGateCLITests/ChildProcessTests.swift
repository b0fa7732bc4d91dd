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

        /// The daemon's launcher runs nothing until the daemon opens its launch gate, and when the gate
        /// closes without opening (the daemon died before it recorded the run) it ends with 125 and the
        /// command never runs; a command let through does not keep the gate's descriptor.
        @Test(arguments: [false, true])
        func theLauncherRunsTheCommandOnlyThroughAnOpenedGate(opened: Bool) async throws {
            let tool = try #require(ToolProcess.path, "the syncgate executable was not found")
            let marker = NSTemporaryDirectory() + "syncgate-gate-\(UUID().uuidString)"
            defer { unlink(marker) }
            let output = open("/dev/null", O_WRONLY | O_CLOEXEC)
            defer { close(output) }
            let gate = try #require(LaunchGate())
            let redirection = ChildProcess.Redirection(
                environment: ProcessInfo.processInfo.environment, workingDirectory: "/", standardOutput: output,
                standardError: output, launchGate: gate.readEnd)
            // The command records whether descriptor 3 is open; the launcher must have closed it.
            let script = "if [ -e /proc/self/fd/3 ]; then echo fd3 > \(marker); else echo ran > \(marker); fi"
            let child = try ChildProcess(
                arguments: [tool, JobLauncher.marker, String(getpid()), "/bin/sh", "sh", "-c", script],
                redirection: redirection)
            // Held at the gate: the launcher has not become the command (its program is still syncgate).
            let program = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(child.pid)/exe")
            #expect(program.map { URL(fileURLWithPath: $0).lastPathComponent } == "syncgate")
            #expect(!FileManager.default.fileExists(atPath: marker))
            if opened { gate.open() }
            gate.close()
            let status = await child.exitStatus()
            let written = try? String(contentsOfFile: marker, encoding: .utf8)
            if opened {
                #expect(status == .exited(0))
                #expect(written == "ran\n")
            } else {
                #expect(status == .exited(125))
                #expect(written == nil)
            }
        }

        /// A command the daemon starts in a directory that cannot be entered (removed since the submit, a
        /// file, not searchable) fails naming the directory, with 126, not as "command not found"; a
        /// missing command in a good directory is still "command not found" (127).
        @Test(arguments: [
            ("/nonexistent-syncgate-directory", "sh", ENOENT, true),
            ("/dev/null", "sh", ENOTDIR, true),
            ("/", "no-such-command-syncgate", ENOENT, false),
        ])
        func aDirectoryThatCannotBeEnteredIsNamed(directory: String, command: String, code: Int32, names: Bool) {
            let output = open("/dev/null", O_WRONLY | O_CLOEXEC)
            defer { close(output) }
            let redirection = ChildProcess.Redirection(
                environment: ["PATH": "/usr/bin:/bin"], workingDirectory: directory, standardOutput: output,
                standardError: output)
            #expect {
                _ = try ChildProcess(arguments: [command, "-c", "true"], redirection: redirection)
            } throws: { error in
                guard let error = error as? ChildProcess.SpawnError else { return false }
                return error.code == code && (error.directory != nil) == names
                    && error.exitCode == (names ? 126 : 127)
                    && error.description
                        == (names
                            ? "cannot enter the directory \(directory) (\(command)): \(String(cString: strerror(code)))"
                            : "\(command): command not found")
            }
        }
    }
#endif
