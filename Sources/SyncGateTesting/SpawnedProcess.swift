#if os(Linux)
    import Foundation
    import Glibc

    import SyncGateCore

    /// A child process for the package's tests: started with `posix_spawn`, reaped with `waitpid`, its stdin,
    /// stdout and stderr pipes held by the test, and every wait on it bounded by a deadline.
    ///
    /// Foundation's `Process` is not used: inside a network namespace whose loopback is down, its
    /// `waitUntilExit` never returns ("Could not create wakeup socket pair"). The child leads its own
    /// process group, so ``stop()`` also kills what it started; it starts with no signal blocked and
    /// SIGINT, SIGTERM and SIGPIPE at their defaults, whatever the spawning test thread had.
    package final class SpawnedProcess {
        /// A child that failed, ended early or missed a deadline.
        package struct Failure: Error, CustomStringConvertible {
            package var message: String
            package var description: String { message }

            package init(message: String) {
                self.message = message
            }
        }

        /// The process id (also the id of its process group).
        package let pid: pid_t
        /// The program and its arguments, for messages.
        package let commandLine: String
        private var input: Int32
        private var output: Int32
        private var errors: Int32
        private var pending: [UInt8] = []
        private var errorBytes: [UInt8] = []
        private var waitStatus: Int32?
        /// Every line of stdout returned by ``nextLine(before:)`` so far.
        package private(set) var lines: [String] = []

        /// Held while pipes are created and while a child is spawned, so no child of this type inherits
        /// another's pipes before they are marked close-on-exec.
        /// (It counts the spawns: a lock around an empty value shares its address with the mutex, which the
        /// thread sanitizer reports as a race.)
        private static let spawning = LockedState(0)

        /// Writing to a child that has exited must fail with `EPIPE`, not kill the test process.
        private static let ignoreBrokenPipes: Void = {
            _ = Glibc.signal(SIGPIPE, SIG_IGN)
        }()

        /// Starts `path` with `arguments`; `environment` entries are added to the test's own.
        ///
        /// With `discardingOutput`, stdout and stderr go to `/dev/null` (for chatty helpers nobody reads).
        package init(
            _ path: String, _ arguments: [String], environment: [String: String] = [:], discardingOutput: Bool = false
        ) throws {
            Self.ignoreBrokenPipes
            commandLine = ([path] + arguments).joined(separator: " ")
            var pipes: [[Int32]] = []
            defer {
                // The child's ends; the parent's are kept below.
                for (index, pair) in pipes.enumerated() { close(index == 0 ? pair[0] : pair[1]) }
            }
            for _ in 0..<3 {
                var pair: [Int32] = [-1, -1]
                // Close-on-exec at once, so children spawned meanwhile do not keep these pipes open.
                let created = Self.spawning.withLock { _ in
                    pipe(&pair) == 0 && fcntl(pair[0], F_SETFD, FD_CLOEXEC) == 0
                        && fcntl(pair[1], F_SETFD, FD_CLOEXEC) == 0
                }
                guard created else {
                    for (index, pair) in pipes.enumerated() { close(index == 0 ? pair[1] : pair[0]) }
                    throw Failure(message: "pipe: errno \(errno)")
                }
                pipes.append(pair)
            }
            input = pipes[0][1]
            output = pipes[1][0]
            errors = pipes[2][0]

            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_adddup2(&actions, pipes[0][0], STDIN_FILENO)
            if discardingOutput {
                posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
                posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
            } else {
                posix_spawn_file_actions_adddup2(&actions, pipes[1][1], STDOUT_FILENO)
                posix_spawn_file_actions_adddup2(&actions, pipes[2][1], STDERR_FILENO)
            }
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            var defaults = sigset_t()
            sigemptyset(&defaults)
            for signal in [SIGINT, SIGTERM, SIGQUIT, SIGHUP, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
            posix_spawnattr_setsigdefault(&attributes, &defaults)
            var mask = sigset_t()
            sigemptyset(&mask)
            posix_spawnattr_setsigmask(&attributes, &mask)
            posix_spawnattr_setpgroup(&attributes, 0)
            var flags = Int32(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP)
            // Only the three pipes: a descriptor another test left without close-on-exec (Foundation's
            // `Process` makes one per launch) would keep that test's reader waiting while this child lives.
            SpawnInheritance.closeOthers(&actions, flags: &flags)
            posix_spawnattr_setflags(&attributes, Int16(flags))

            var variables = Self.inheritedEnvironment
            variables.merge(environment) { $1 }
            let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { SystemBytes.cString($0) } + [nil]
            let envp: [UnsafeMutablePointer<CChar>?] =
                variables.map { SystemBytes.cString("\($0.key)=\($0.value)") } + [nil]
            defer { for pointer in argv + envp { free(pointer) } }
            var spawned: pid_t = 0
            let result = Self.spawning.withLock { spawns in
                spawns += 1
                return posix_spawn(&spawned, path, &actions, &attributes, argv, envp)
            }
            guard result == 0 else {
                close(input)
                close(output)
                close(errors)
                throw Failure(message: "cannot start \(path): \(SystemErrorText.message(result))")
            }
            pid = spawned
            if discardingOutput {
                close(output)
                close(errors)
                output = -1
                errors = -1
            }
        }

        deinit {
            stop()
        }

        /// The test process's environment without what `stdbuf` adds (CI runs the suite under `stdbuf -oL`
        /// so its log is whole when a hang is reported): a child writes to its pipes as it would for a user,
        /// buffered unless it flushes, so a test of its output still sees a missing flush.
        private static var inheritedEnvironment: [String: String] {
            var variables = ProcessInfo.processInfo.environment
            for name in ["_STDBUF_I", "_STDBUF_O", "_STDBUF_E"] { variables[name] = nil }
            if let preload = variables["LD_PRELOAD"], preload.contains("libstdbuf") {
                let rest = preload.split(separator: ":").filter { !$0.contains("libstdbuf") }
                variables["LD_PRELOAD"] = rest.isEmpty ? nil : rest.joined(separator: ":")
            }
            return variables
        }

        // MARK: - Input

        /// Writes `text` to the child's stdin, reading its output meanwhile so neither side blocks.
        package func write(_ text: String, before deadline: ContinuousClock.Instant) throws {
            var bytes = Array(text.utf8)[...]
            let flags = fcntl(input, F_GETFL)
            _ = fcntl(input, F_SETFL, flags | O_NONBLOCK)
            while !bytes.isEmpty {
                guard input >= 0 else { throw Failure(message: "\(commandLine): stdin is closed") }
                var entries = [
                    pollfd(fd: input, events: Int16(POLLOUT), revents: 0),
                    pollfd(fd: output, events: Int16(POLLIN), revents: 0),
                    pollfd(fd: errors, events: Int16(POLLIN), revents: 0),
                ]
                guard try poll(&entries, before: deadline) else {
                    throw Failure(message: "\(commandLine): could not write its input before the deadline")
                }
                if entries[1].revents != 0 { drain(&output, into: &pending) }
                if entries[2].revents != 0 { drain(&errors, into: &errorBytes) }
                guard entries[0].revents != 0 else { continue }
                let written = bytes.withUnsafeBytes { Glibc.write(input, $0.baseAddress, $0.count) }
                if written < 0 {
                    if errno == EAGAIN || errno == EINTR { continue }
                    throw Failure(message: "\(commandLine): writing its input failed, errno \(errno)\(stderrNote)")
                }
                bytes = bytes.dropFirst(written)
            }
        }

        /// Closes the child's stdin: it reads end of file.
        package func closeInput() {
            if input >= 0 { close(input) }
            input = -1
        }

        /// Closes this end of the child's stdout, as a reader that goes away does (`| head -1`): the
        /// child's next write fails, and its pipe reports the hang-up. ``finish(before:)`` then waits for the
        /// child's exit and stderr alone.
        package func closeOutput() {
            if output >= 0 { close(output) }
            output = -1
        }

        // MARK: - Output

        /// The next line of stdout, without its newline; `nil` when none is complete by `deadline`.
        ///
        /// - Throws: ``Failure`` when stdout ends (the child exited) before a line.
        package func nextLine(before deadline: ContinuousClock.Instant) throws -> String? {
            while true {
                if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: pending[..<newline], as: UTF8.self)
                    pending.removeSubrange(...newline)
                    lines.append(line)
                    return line
                }
                guard output >= 0 else {
                    throw Failure(
                        message: "\(commandLine) closed its output; lines so far: \(lines)\(stderrNote)")
                }
                guard try readAvailable(before: deadline) else { return nil }
            }
        }

        /// The next line of stdout within `timeout`; throws when none comes.
        package func nextLine(within timeout: Duration) throws -> String {
            guard let line = try nextLine(before: .now + timeout) else {
                throw Failure(
                    message: "\(commandLine): no line within \(timeout); lines so far: \(lines)\(stderrNote)"
                        + threadDump())
            }
            return line
        }

        /// What the child wrote to stderr so far (read while waiting for stdout).
        package var stderrText: String { String(decoding: errorBytes, as: UTF8.self) }

        /// Reads both pipes until stderr contains `text` (stdout's lines are kept for ``nextLine(before:)``);
        /// throws when it does not within `timeout`, or when stderr ends first.
        package func waitForStderr(containing text: String, within timeout: Duration) throws {
            let deadline = ContinuousClock.now + timeout
            while !stderrText.contains(text) {
                guard errors >= 0 else {
                    throw Failure(message: "\(commandLine) closed stderr without writing \"\(text)\"\(stderrNote)")
                }
                guard try readAvailable(before: deadline) else {
                    throw Failure(
                        message: "\(commandLine): stderr did not say \"\(text)\" within \(timeout)\(stderrNote)"
                            + threadDump())
                }
            }
        }

        private var stderrNote: String {
            errorBytes.isEmpty ? "" : "; stderr: \(stderrText)"
        }

        // MARK: - Exit

        /// Reads stdout and stderr to their end and reaps the child; kills it and throws at `deadline`.
        ///
        /// - Returns: the rest of stdout and the exit status (128 + N for signal N).
        package func finish(before deadline: ContinuousClock.Instant) throws -> (stdout: String, status: Int32) {
            while output >= 0 || errors >= 0 {
                guard try readAvailable(before: deadline) else {
                    // A child that already exited (a zombie, its output held by another process) has no
                    // stacks to show; the holders say why its output did not end.
                    let holders = exitedButHeld()
                    let threads = threadDump()
                    stop()
                    throw Failure(
                        message: "\(commandLine) did not end before the deadline; lines so far: \(lines)"
                            + ", then \(String(decoding: pending, as: UTF8.self).debugDescription)\(stderrNote)"
                            + threads + holders)
                }
            }
            // Both pipes are closed: the child has exited (or handed them on and is about to).
            while reap(blocking: false) == nil {
                guard ContinuousClock.now < deadline else {
                    stop()
                    throw Failure(message: "\(commandLine) closed its output but did not exit\(stderrNote)")
                }
                var none = pollfd(fd: -1, events: 0, revents: 0)
                _ = Glibc.poll(&none, 0, 5)
            }
            let rest = String(decoding: pending, as: UTF8.self)
            pending = []
            return (rest, exitCode)
        }

        /// The exit status once reaped: the code, or 128 + N for signal N.
        private var exitCode: Int32 {
            guard let status = waitStatus else { return -1 }
            let signal = status & 0x7f
            return signal == 0 ? (status >> 8) & 0xff : 128 + signal
        }

        /// Whether the child has not exited yet (reaps it when it has).
        package var isRunning: Bool { reap(blocking: false) == nil }

        /// Sends `signal` to the child unless it has been reaped (so never to a recycled id).
        package func signal(_ signal: Int32) {
            if waitStatus == nil { kill(pid, signal) }
        }

        /// Kills the child's whole process group, reaps the child and closes the pipes.
        package func stop() {
            closeInput()
            if waitStatus == nil {
                kill(-pid, SIGKILL)
                kill(pid, SIGKILL)
                _ = reap(blocking: true)
            }
            if output >= 0 { close(output) }
            if errors >= 0 { close(errors) }
            output = -1
            errors = -1
        }

        // MARK: - Plumbing

        /// Waits until stdout or stderr has something (or ends) and reads it into ``pending`` or the stderr
        /// bytes; `false` when `deadline` passes first. A closed pipe (-1) is skipped by `poll`.
        private func readAvailable(before deadline: ContinuousClock.Instant) throws -> Bool {
            var entries = [
                pollfd(fd: output, events: Int16(POLLIN), revents: 0),
                pollfd(fd: errors, events: Int16(POLLIN), revents: 0),
            ]
            guard try poll(&entries, before: deadline) else { return false }
            if entries[0].revents != 0 { drain(&output, into: &pending) }
            if entries[1].revents != 0 { drain(&errors, into: &errorBytes) }
            return true
        }

        /// Polls `entries` until one is ready (`true`) or `deadline` passes (`false`).
        private func poll(_ entries: inout [pollfd], before deadline: ContinuousClock.Instant) throws -> Bool {
            while true {
                let remaining = ContinuousClock.now.duration(to: deadline)
                guard remaining > .zero else { return false }
                let milliseconds = Int32(clamping: remaining.components.seconds * 1_000 + 1)
                let ready = Glibc.poll(&entries, nfds_t(entries.count), milliseconds)
                if ready > 0 { return true }
                if ready < 0 && errno != EINTR { throw Failure(message: "poll: errno \(errno)") }
            }
        }

        /// Reads what `descriptor` has into `buffer`; closes it (and sets it to -1) at end of file.
        private func drain(_ descriptor: inout Int32, into buffer: inout [UInt8]) {
            guard descriptor >= 0 else { return }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                buffer += chunk[..<count]
            } else if count == 0 || errno != EINTR {
                close(descriptor)
                descriptor = -1
            }
        }

        /// Every thread's stack of the child, for the message of a missed deadline: a child that stalls
        /// is gone once the test kills it, and its stacks are what tells a deadlock from a slow machine.
        ///
        /// Empty when `gdb` is not installed, the child has exited, or the dump fails; bounded to 20 s.
        private func threadDump() -> String {
            guard waitStatus == nil,
                let gdb = ["/usr/bin/gdb", "/usr/local/bin/gdb"].first(where: {
                    FileManager.default.isExecutableFile(atPath: $0)
                })
            else { return "" }
            let dump = try? Self.run(
                gdb, ["-p", "\(pid)", "--batch", "-ex", "set pagination off", "-ex", "thread apply all bt"],
                timeout: .seconds(20))
            guard let dump else { return "" }
            let stacks = dump.split(separator: "\n").filter { $0.hasPrefix("Thread ") || $0.hasPrefix("#") }
            return "\nthreads of \(pid) at the deadline:\n" + stacks.joined(separator: "\n")
        }

        /// When the child has exited but its stdout or stderr is still open, which processes hold them, for
        /// the message of a missed deadline; empty while the child runs.
        ///
        /// A process that inherited the pipe (a grandchild, or a process another thread spawned between
        /// `pipe()` and `fcntl(FD_CLOEXEC)`) keeps the reader from seeing the end of the output.
        private func exitedButHeld() -> String {
            guard let status = reap(blocking: false) else { return "" }
            let pipes = Set([output, errors].filter { $0 >= 0 }.compactMap { Self.link("/proc/self/fd/\($0)") })
            var holders: [String] = []
            let own = getpid()
            for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
                guard let holder = pid_t(entry), holder != own else { continue }
                let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(entry)/fd")) ?? []
                guard descriptors.contains(where: { Self.link("/proc/\(entry)/fd/\($0)").map(pipes.contains) ?? false })
                else { continue }
                let command = (try? String(contentsOfFile: "/proc/\(entry)/cmdline", encoding: .utf8))?
                    .split(separator: "\0").joined(separator: " ")
                holders.append("\(holder) (\(command ?? "?"))")
            }
            return "\nit exited (wait status \(status)), but its output is still held open by: "
                + (holders.isEmpty ? "no process found" : holders.joined(separator: "; "))
        }

        /// The target of the symbolic link at `path` (`pipe:[1234]` for a pipe's descriptor).
        private static func link(_ path: String) -> String? {
            var buffer = [CChar](repeating: 0, count: 256)
            let count = readlink(path, &buffer, buffer.count - 1)
            guard count > 0 else { return nil }
            return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }

        /// Reaps the child if it has exited (or waits for it when `blocking`); returns its wait status.
        private func reap(blocking: Bool) -> Int32? {
            if let waitStatus { return waitStatus }
            var status: Int32 = 0
            while true {
                let result = waitpid(pid, &status, blocking ? 0 : WNOHANG)
                if result == pid {
                    waitStatus = status
                    return status
                }
                if result == -1 && errno == EINTR { continue }
                return nil
            }
        }

        /// Runs a program to completion within `timeout`, writing `input` to its stdin.
        ///
        /// - Returns: its stdout.
        /// - Throws: ``Failure`` with its stderr when it exits with a non-zero status or misses the deadline.
        @discardableResult
        package static func run(
            _ path: String, _ arguments: [String], input: String? = nil, timeout: Duration = .seconds(30)
        ) throws -> String {
            let deadline = ContinuousClock.now + timeout
            let process = try SpawnedProcess(path, arguments)
            defer { process.stop() }
            if let input { try process.write(input, before: deadline) }
            process.closeInput()
            let (stdout, status) = try process.finish(before: deadline)
            guard status == 0 else {
                throw Failure(message: "\(process.commandLine) exited \(status): \(process.stderrText)")
            }
            return stdout
        }
    }
#endif
