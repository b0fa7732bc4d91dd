#if os(Linux)
    import Foundation
    import Glibc
    import SyncGate
    import SyncGateTesting
    import SyncGateTestSupport
    import Testing

    /// The durable-job crash test: `syncgate-durable-probe` restores, submits and runs durable jobs while
    /// this test kills it with SIGKILL after a seeded random number of progress lines, more than 100
    /// times; after each kill the journal is opened and checked, and the next process goes on from it.
    /// Across the kills, no dependent starts before its dependencies finished, and each reads their
    /// outputs.
    @Suite("Durable crash", .startsProcesses, .serialized, .timeLimit(.minutes(2)))
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
            /// The periodic series whose run is under way in the current process.
            var runningSeries: Set<String> = []
            /// The jobs each job depends on, from the probe's `depends` lines.
            var dependencies: [String: [String]] = [:]
            var dependentStarts = 0
            var periodicRuns = 0
            var starts = 0
            var violations: [String] = []

            mutating func take(_ line: String, generation: Int) {
                let parts = line.split(separator: " ").map(String.init)
                guard let word = parts.first else { return }
                switch word {
                case "submitted":
                    submitted.insert(parts[1])
                    known.insert(parts[1])
                case "depends":
                    dependencies[parts[1], default: []].append(parts[2])
                case "start":
                    starts += 1
                    known.insert(parts[1])
                    for dependency in dependencies[parts[1]] ?? [] {
                        dependentStarts += 1
                        if !finished.contains(dependency) {
                            violations.append(
                                "generation \(generation): \(parts[1]) started before its dependency \(dependency) finished"
                            )
                        }
                    }
                    if resolved.contains(parts[1]) {
                        violations.append("generation \(generation): \(parts[1]) started after it was resolved")
                    }
                    if Self.isPeriodic(parts[1]) {
                        periodicRuns += 1
                        if !runningSeries.insert(parts[1]).inserted {
                            violations.append("generation \(generation): two periods of \(parts[1]) ran at once")
                        }
                    }
                case "finish":
                    if Self.isPeriodic(parts[1]) {
                        runningSeries.remove(parts[1])
                    } else {
                        finished.insert(parts[1])
                    }
                case "cancelling":
                    // A periodic series ends only when cancelled: its job may leave the store from here.
                    runningSeries.remove(parts[1])
                    finished.insert(parts[1])
                case "error":
                    violations.append("generation \(generation): probe failed: \(line)")
                default:
                    break
                }
            }

            /// Whether the id is that of a periodic job (`p<generation>`); the others are `g<generation>-<n>`.
            static func isPeriodic(_ id: String) -> Bool {
                id.hasPrefix("p")
            }

            /// Checks the journal left by a process, and learns which jobs it resolved.
            mutating func verify(_ directory: String, generation: Int) {
                runningSeries = []  // the process has ended: none of its runs goes on
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
        ///
        /// The probe is started by `SpawnedProcess`, whose pipes are close-on-exec from the start: a pipe
        /// inherited by a child that another test starts at the same moment would keep the probe's
        /// output open after the kill, and the read would wait for that other child instead.
        static func runProbe(
            _ probe: String, _ arguments: [String], killAfter: Int?
        ) throws -> (lines: [String], killed: Bool) {
            let process = try SpawnedProcess(probe, arguments)
            var lines: [String] = []
            var killed = false
            while !killed {
                let line: String?
                do {
                    // Hang guard only: a probe silent for 20 s has hung.
                    line = try process.nextLine(before: .now + .seconds(20))
                } catch {
                    break  // stdout ended: the probe exited
                }
                guard let line else {
                    let threads = Self.threadStates(process.pid)
                    process.stop()
                    Issue.record(
                        "the probe printed nothing for 20 s after: \(lines.suffix(5)); its threads: \(threads)")
                    return (lines, true)
                }
                lines.append(line)
                if let killAfter, lines.count >= killAfter {
                    process.signal(SIGKILL)
                    killed = true
                }
            }
            // Every line was written with one write(2): what remains is whole lines.
            let rest = try process.finish(before: .now + .seconds(20)).stdout
            lines += rest.split(separator: "\n").map(String.init)
            return (lines, killed)
        }

        /// The scheduler state and kernel wait channel of each thread of `pid`, for a hang report.
        static func threadStates(_ pid: pid_t) -> String {
            let tasks = "/proc/\(pid)/task"
            let ids = (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []
            return ids.sorted().map { id in
                let stat = (try? String(contentsOfFile: "\(tasks)/\(id)/stat", encoding: .utf8)) ?? ""
                let state = stat.split(separator: ")").last?.split(separator: " ").first ?? "?"
                let channel = (try? String(contentsOfFile: "\(tasks)/\(id)/wchan", encoding: .utf8)) ?? "?"
                return "\(id):\(state)/\(channel)"
            }.joined(separator: " ")
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
            #expect(ledger.periodicRuns > 0, "seed \(seed): no periodic job ran")
            #expect(ledger.dependentStarts > 0, "seed \(seed): no dependent job ran")
            #expect(ledger.known.subtracting(ledger.finished).isEmpty)
            #expect(ledger.violations.isEmpty, "seed \(seed): \(ledger.violations.prefix(10))")
            #expect(kills >= min(wantedKills, 100), "seed \(seed): only \(kills) kills")
            print(
                "durable crash test: \(kills) kills over \(generation + 1) processes, \(ledger.known.count) jobs, "
                    + "\(ledger.starts) attempt starts (\(ledger.periodicRuns) periodic runs, "
                    + "\(ledger.dependentStarts) dependent starts), seed \(seed)")
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

        /// A new directory under `base` (default: the temporary directory).
        init(under base: String = NSTemporaryDirectory()) {
            let folder = base.hasSuffix("/") ? base : base + "/"
            var template = Array((folder + "syncgate-crash-XXXXXX").utf8CString)
            let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
            precondition(created != nil, "mkdtemp failed")
            path = String(cString: template.withUnsafeBufferPointer { $0.baseAddress! })
        }

        deinit {
            try? FileManager.default.removeItem(atPath: path)
        }
    }
#endif
