#if os(Linux)
    import Foundation
    import Glibc
    import SyncGate
    import SyncGateTesting
    import Testing

    /// The durable-job crash test: `syncgate-durable-probe` restores, submits and runs durable jobs while
    /// this test kills it with SIGKILL after a seeded random number of progress lines, more than 100
    /// times; after each kill the journal is opened and checked, and the next process goes on from it.
    @Suite("Durable crash", .serialized, .timeLimit(.minutes(2)))
    struct DurableCrashTests {
        /// The probe: `$SYNCGATE_DURABLE_PROBE`, else next to the test binary in the build folder.
        static let probePath: String? = {
            if let path = ProcessInfo.processInfo.environment["SYNCGATE_DURABLE_PROBE"] { return path }
            guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
                return nil
            }
            var directory = URL(fileURLWithPath: executable).deletingLastPathComponent()
            for _ in 0..<4 {
                let candidate = directory.appendingPathComponent("syncgate-durable-probe").path
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
                directory.deleteLastPathComponent()
            }
            return nil
        }()

        /// What the test knows about the jobs, across processes.
        struct Ledger {
            var submitted: Set<String> = []
            var finished: Set<String> = []
            var known: Set<String> = []
            var resolved: Set<String> = []
            var starts = 0
            var violations: [String] = []

            mutating func take(_ line: String, generation: Int) {
                let parts = line.split(separator: " ").map(String.init)
                guard let word = parts.first else { return }
                switch word {
                case "submitted":
                    submitted.insert(parts[1])
                    known.insert(parts[1])
                case "start":
                    starts += 1
                    known.insert(parts[1])
                    if resolved.contains(parts[1]) {
                        violations.append("generation \(generation): \(parts[1]) started after it was resolved")
                    }
                case "finish":
                    finished.insert(parts[1])
                case "error":
                    violations.append("generation \(generation): probe failed: \(line)")
                default:
                    break
                }
            }

            /// Checks the journal left by a process, and learns which jobs it resolved.
            mutating func verify(_ directory: String, generation: Int) {
                let jobs: [StoredJob]
                do {
                    let store = try FileJobStore(directory: directory)
                    jobs = try store.load().jobs
                    try store.close()
                } catch {
                    violations.append("generation \(generation): the journal did not open: \(error)")
                    return
                }
                let ids = jobs.map(\.id)
                if Set(ids).count != ids.count {
                    violations.append("generation \(generation): a job is stored twice: \(ids.sorted())")
                }
                let stored = Set(ids)
                for id in submitted where !stored.contains(id) && !finished.contains(id) {
                    violations.append("generation \(generation): \(id) was submitted, is gone, and never finished")
                }
                resolved.formUnion(known.subtracting(stored))
                known.formUnion(stored)
            }
        }

        /// Runs the probe until it has printed `killAfter` lines (then SIGKILL), or to its end.
        /// Returns the lines and whether it was killed.
        static func runProbe(
            _ probe: String, _ arguments: [String], killAfter: Int?
        ) throws -> (lines: [String], killed: Bool) {
            var pipe: [Int32] = [0, 0]
            guard Glibc.pipe(&pipe) == 0 else { throw POSIXError(.EIO) }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_adddup2(&actions, pipe[1], STDOUT_FILENO)
            posix_spawn_file_actions_addclose(&actions, pipe[0])
            let argv = ([probe] + arguments).map { strdup($0) } + [nil]
            defer { for pointer in argv { free(pointer) } }
            var pid: pid_t = 0
            let spawned = posix_spawn(&pid, probe, &actions, nil, argv, environ)
            close(pipe[1])
            defer { close(pipe[0]) }
            guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }

            var lines: [String] = []
            var pending: [UInt8] = []
            var killed = false
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                // Hang guard only: a probe silent for 20 s has hung.
                var poller = pollfd(fd: pipe[0], events: Int16(POLLIN), revents: 0)
                if poll(&poller, 1, 20_000) == 0 {
                    kill(pid, SIGKILL)
                    var status: Int32 = 0
                    waitpid(pid, &status, 0)
                    Issue.record("the probe printed nothing for 20 s after: \(lines.suffix(5))")
                    return (lines, true)
                }
                let count = buffer.withUnsafeMutableBytes { read(pipe[0], $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                pending += buffer[0..<count]
                while let newline = pending.firstIndex(of: 10) {
                    lines.append(String(decoding: pending[..<newline], as: UTF8.self))
                    pending.removeSubrange(...newline)
                    if let killAfter, !killed, lines.count >= killAfter {
                        kill(pid, SIGKILL)
                        killed = true
                    }
                }
            }
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            return (lines, killed)
        }

        @Test("SIGKILL at random moments never loses a submitted job nor runs a resolved one")
        func randomKills() throws {
            guard let probe = Self.probePath else {
                Issue.record("syncgate-durable-probe not found: run `swift build` first or set SYNCGATE_DURABLE_PROBE")
                return
            }
            let environment = ProcessInfo.processInfo.environment
            let seed = environment["SYNCGATE_CRASH_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 0...UInt64.max)
            let wantedKills = environment["SYNCGATE_CRASH_KILLS"].flatMap(Int.init) ?? 110
            print("durable crash test seed: \(seed) (SYNCGATE_CRASH_SEED=\(seed) reproduces the kill points)")
            var random = SeededRandom(seed: seed)
            let directory = TemporaryDirectoryPath()
            var ledger = Ledger()
            var kills = 0
            var generation = 0
            while kills < wantedKills && generation < wantedKills * 3 {
                let jobs = random.next(in: 0...20)
                let killAfter = random.next(in: 1...(3 * jobs + 6))
                let mode = generation % 2 == 0 ? "sync" : "batched"
                let (lines, killed) = try Self.runProbe(
                    probe, ["run", directory.path, "\(generation)", "\(jobs)", "\(seed)", mode], killAfter: killAfter)
                for line in lines { ledger.take(line, generation: generation) }
                if killed { kills += 1 }
                ledger.verify(directory.path, generation: generation)
                generation += 1
                if ledger.violations.count > 20 { break }
            }
            let (lines, killed) = try Self.runProbe(
                probe, ["run", directory.path, "\(generation)", "0", "\(seed)", "sync"], killAfter: nil)
            for line in lines { ledger.take(line, generation: generation) }
            #expect(!killed)
            #expect(lines.last == "done", "the last run ended with \(lines.suffix(3))")
            ledger.verify(directory.path, generation: generation)
            let remaining = try FileJobStore(directory: directory.path).load().jobs.map(\.id)
            #expect(remaining.isEmpty, "jobs left after the final run: \(remaining)")
            #expect(ledger.known.subtracting(ledger.finished).isEmpty)
            #expect(ledger.violations.isEmpty, "seed \(seed): \(ledger.violations.prefix(10))")
            #expect(kills >= min(wantedKills, 100), "seed \(seed): only \(kills) kills")
            print(
                "durable crash test: \(kills) kills over \(generation + 1) processes, \(ledger.known.count) jobs, "
                    + "\(ledger.starts) attempt starts, seed \(seed)")
        }

        @Test("a read-only store directory gives an error naming the path and the cause")
        func readOnlyDirectory() throws {
            let directory = TemporaryDirectoryPath()
            chmod(directory.path, 0o555)
            defer { chmod(directory.path, 0o755) }
            let message: String
            if geteuid() == 0 {
                // Root ignores permission bits: the probe drops to uid/gid 65534 first.
                guard let probe = Self.probePath else {
                    Issue.record("syncgate-durable-probe not found: run `swift build` first")
                    return
                }
                let (lines, _) = try Self.runProbe(probe, ["open", directory.path, "--as-nobody"], killAfter: nil)
                message = lines.joined(separator: "\n")
            } else {
                do {
                    _ = try FileJobStore(directory: directory.path)
                    message = "opened"
                } catch {
                    message = "error \(error)"
                }
            }
            #expect(message.hasPrefix("error "))
            #expect(message.contains(directory.path + "/lock"))
            #expect(message.contains("Permission denied"))
        }
    }

    /// A fresh directory under the temporary directory, removed when the value goes away.
    final class TemporaryDirectoryPath: Sendable {
        let path: String

        init() {
            var template = Array((NSTemporaryDirectory() + "syncgate-crash-XXXXXX").utf8CString)
            let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
            precondition(created != nil, "mkdtemp failed")
            path = String(cString: template.withUnsafeBufferPointer { $0.baseAddress! })
        }

        deinit {
            try? FileManager.default.removeItem(atPath: path)
        }
    }
#endif
