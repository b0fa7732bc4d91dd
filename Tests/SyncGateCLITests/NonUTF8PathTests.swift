#if os(Linux)
    import Foundation
    import Glibc
    import SyncGateCore
    import SyncGateTesting
    import Testing

    /// Paths and environment values whose bytes are not UTF-8 (`\xE9`, Latin-1 `é`) reach the system byte
    /// for byte: the daemon's state directory and socket, a job's `HOME` and `SYNCGATE_STOP_REASON_FILE`,
    /// and a `PATH` directory `run` searches. Each was turned into other bytes (an escape's four UTF-8
    /// bytes, or U+FFFD) and so named another file.
    @Suite(.serialized) struct NonUTF8PathTests {
        /// A fresh directory (ASCII name) for one test.
        private static func makeBase() throws -> String {
            var template = Array((NSTemporaryDirectory() + "syncgate-bytes-XXXXXX").utf8CString)
            let made = try #require(template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) })
            return String(cString: made)
        }

        /// The text form of `base` followed by `bytes`.
        private static func path(_ base: String, _ bytes: [UInt8]) -> String {
            SystemBytes.text(of: Array(base.utf8) + bytes)
        }

        /// The file type at the path made of exactly `bytes` (`lstat`), or `nil` when nothing is there.
        private static func type(at bytes: [UInt8]) -> mode_t? {
            var info = stat()
            let found = (bytes.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer {
                lstat($0.baseAddress!, &info) == 0
            }
            return found ? info.st_mode & S_IFMT : nil
        }

        /// The content of the file at the path made of exactly `bytes`.
        private static func contents(at bytes: [UInt8]) -> [UInt8]? {
            let descriptor = (bytes.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer {
                open($0.baseAddress!, O_RDONLY)
            }
            guard descriptor >= 0 else { return nil }
            defer { close(descriptor) }
            var content: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count <= 0 { return content }
                content += buffer[..<count]
            }
        }

        /// Removes `path` and what it holds, whatever bytes the names are.
        private static func remove(_ path: String) {
            _ = try? SpawnedProcess.run("/bin/rm", ["-rf", path])
        }

        /// A daemon given `--state-dir` and `--socket` with a byte that is not UTF-8 makes and uses exactly
        /// those paths (it made `st\xF4\x8F\xBF\xA9` and listened elsewhere), a client given the socket in
        /// `SYNCGATE_SOCKET` finds it, and a job gets the daemon's `HOME` and its stop-reason file's path
        /// byte for byte (it got `h\xEF\xBF\xBD`).
        @Test(.timeLimit(.minutes(1))) func theDaemonUsesThePathsAndPassesHOMEByteForByte() async throws {
            let tool = try #require(ToolProcess.path, "the syncgate executable was not found")
            let base = try Self.makeBase()
            defer { Self.remove(base) }
            let stateBytes = Array(base.utf8) + Array("/st".utf8) + [0xE9]
            let socketBytes = Array(base.utf8) + Array("/so".utf8) + [0xE9] + Array("/socket".utf8)
            let homeBytes = Array(base.utf8) + Array("/h".utf8) + [0xE9]
            let state = SystemBytes.text(of: stateBytes)
            let socket = SystemBytes.text(of: socketBytes)
            let daemon = try SpawnedProcess(
                tool, ["daemon", "--state-dir", state, "--socket", socket, "--grace", "1s", "--kill-grace", "1s"],
                environment: ["HOME": SystemBytes.text(of: homeBytes)])
            defer { daemon.stop() }
            daemon.closeInput()
            try daemon.waitForStderr(containing: "listening on", within: .seconds(20))

            for directory in ["jobs", "runs", "running"] {
                #expect(Self.type(at: stateBytes + Array("/\(directory)".utf8)) == S_IFDIR, "\(directory)")
            }
            #expect(Self.type(at: socketBytes) == S_IFSOCK)
            // Not the escape's UTF-8 bytes.
            #expect(Self.type(at: Array(base.utf8) + Array("/st".utf8) + [0xF4, 0x8F, 0xBF, 0xA9]) == nil)
            #expect(Self.type(at: Array(base.utf8) + Array("/so".utf8) + [0xF4, 0x8F, 0xBF, 0xA9]) == nil)

            let jobs = try await ToolProcess.run(["jobs"], environment: ["SYNCGATE_SOCKET": socket])
            #expect(jobs.status == 0, "\(jobs.stderr)")
            #expect(jobs.stdout.contains("no jobs"), "\(jobs.stdout)")

            let output = base + "/job.out"
            let submitted = try await ToolProcess.run(
                [
                    "submit", "--wait", "--", "/bin/sh", "-c",
                    #"printf '%s\n%s' "$HOME" "$SYNCGATE_STOP_REASON_FILE" > "$0""#, output,
                ],
                environment: ["SYNCGATE_SOCKET": socket])
            #expect(submitted.status == 0, "\(submitted.stderr)")
            let lines = (Self.contents(at: Array(output.utf8)) ?? []).split(
                separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            #expect(lines.count == 2)
            #expect(lines.first.map(Array.init) == homeBytes)
            let stopReasonFile = lines.count == 2 ? Array(lines[1]) : []
            #expect(stopReasonFile.starts(with: stateBytes + Array("/runs/".utf8)), "\(stopReasonFile)")

            daemon.signal(SIGTERM)
            let (_, status) = try daemon.finish(before: .now + .seconds(20))
            #expect(status == 0)
        }

        /// With ASCII state and socket paths, a job still gets the daemon's `HOME` byte for byte (it got
        /// `h\xEF\xBF\xBD`: the daemon read its environment through Foundation, which replaced the byte).
        @Test(.timeLimit(.minutes(1))) func aJobGetsTheDaemonsHOMEByteForByte() async throws {
            let tool = try #require(ToolProcess.path, "the syncgate executable was not found")
            let base = try Self.makeBase()
            defer { Self.remove(base) }
            let homeBytes = Array(base.utf8) + Array("/h".utf8) + [0xE9]
            let socket = base + "/run/socket"
            let daemon = try SpawnedProcess(
                tool, ["daemon", "--state-dir", base + "/state", "--socket", socket, "--kill-grace", "1s"],
                environment: ["HOME": SystemBytes.text(of: homeBytes)])
            defer { daemon.stop() }
            daemon.closeInput()
            try daemon.waitForStderr(containing: "listening on", within: .seconds(20))
            let output = base + "/home.out"
            let submitted = try await ToolProcess.run(
                ["submit", "--wait", "--", "/bin/sh", "-c", #"printf %s "$HOME" > "$0""#, output],
                environment: ["SYNCGATE_SOCKET": socket])
            #expect(submitted.status == 0, "\(submitted.stderr)")
            #expect(Self.contents(at: Array(output.utf8)) == homeBytes)
            daemon.signal(SIGTERM)
            _ = try daemon.finish(before: .now + .seconds(20))
        }

        /// `run` finds a command in a `PATH` directory whose name is not UTF-8 (it exited 127, "command not
        /// found", looking in `bin\u{FFFD}`).
        @Test(.timeLimit(.minutes(1))) func runFindsACommandInAPathDirectoryThatIsNotUTF8() async throws {
            let base = try Self.makeBase()
            defer { Self.remove(base) }
            let binBytes = Array(base.utf8) + Array("/bin".utf8) + [0xE9]
            let made = (binBytes.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer {
                mkdir($0.baseAddress!, 0o755)
            }
            try #require(made == 0)
            let name = "syncgate-bytes-\(getpid())"
            let script = SystemBytes.text(of: binBytes) + "/" + name
            let descriptor = SystemBytes.withCString(script) { open($0, O_WRONLY | O_CREAT | O_TRUNC, 0o755) }
            try #require(descriptor >= 0)
            let text = Array("#!/bin/sh\necho found it\n".utf8)
            #expect(write(descriptor, text, text.count) == text.count)
            close(descriptor)

            let result = try await ToolProcess.run(
                ["run", "--require", "none", "--", name],
                environment: ["PATH": SystemBytes.text(of: binBytes) + ":/usr/bin:/bin"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("found it"))
        }
    }
#endif
