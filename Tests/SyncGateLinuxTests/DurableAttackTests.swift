#if os(Linux)
    import Foundation
    import Glibc
    import SyncGate
    import SyncGateTesting
    import SyncGateTestSupport
    import Testing

    /// Seeded attacks on the durable store, checked with ``IndependentJournalReader``: corrupted journals,
    /// and SIGKILLs of a process that compacts every few records. `SYNCGATE_ATTACK_SEED` reproduces a run.
    @Suite("Durable attacks", .startsProcesses, .serialized, .timeLimit(.minutes(3)))
    struct DurableAttackTests {
        static let seed: UInt64 = {
            let seed =
                ProcessInfo.processInfo.environment["SYNCGATE_ATTACK_SEED"].flatMap(UInt64.init)
                ?? UInt64.random(in: 0...UInt64.max)
            print("durable attack seed: \(seed) (SYNCGATE_ATTACK_SEED=\(seed) reproduces it)")
            return seed
        }()

        /// A journal with live and resolved jobs, attempts and random payloads, written by the store.
        static func sampleJournal(_ random: inout SeededRandom) throws -> [UInt8] {
            let directory = TemporaryDirectoryPath()
            let store = try FileJobStore(directory: directory.path)
            for sequence in UInt64(1)...40 {
                let text = String(
                    (0..<random.next(in: 0...120)).map { _ in Character(UnicodeScalar(UInt8(random.next(in: 32...126))))
                    })
                let payload = try JSONEncoder().encode(Note(text: text))
                try store.append(
                    .submitted(
                        StoredJob(
                            sequence: sequence, id: "job-\(sequence)", kind: "note", payload: payload,
                            submittedAt: Date(timeIntervalSince1970: 1_700_000_000))))
                if random.next(below: 3) == 0 { try store.append(.attemptStarted(sequence: sequence, attempt: 1)) }
                if random.next(below: 3) == 0 {
                    try store.append(
                        .resolved(sequence: UInt64(random.next(in: 1...Int(sequence))), resolution: .succeeded))
                }
            }
            try store.close()
            return Array(try Data(contentsOf: URL(fileURLWithPath: directory.path + "/journal")))
        }

        /// Where the sweep writes its 150 journals: memory (`/dev/shm`) where there is one, since the sweep
        /// tests the reader, not the disk; each store's `fdatasync` on a busy disk made it slow.
        static let sweepBase: String =
            FileManager.default.isWritableFile(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()

        @Test("corruption sweep: no crash, no fabricated job, no changed payload, no intact unresolved job lost")
        func corruptionSweep() throws {
            var random = SeededRandom(seed: Self.seed)
            let original = try Self.sampleJournal(&random)
            let reference = IndependentJournalReader(original)
            var submitted: [UInt64: IndependentJournalReader.Job] = [:]
            for frame in reference.frames { if let job = frame.job { submitted[frame.sequence] = job } }
            var violations: [String] = []
            for round in 0..<150 {
                var bytes = original
                // The damaged range [low, high): what no intact frame may overlap.
                let low: Int
                var high: Int
                let what: String
                switch random.next(below: 4) {
                case 0:
                    low = random.next(below: bytes.count)
                    high = low + 1
                    bytes[low] ^= UInt8(1 << random.next(below: 8))
                    what = "flipped a bit at \(low)"
                case 1:
                    low = random.next(below: bytes.count)
                    high = Int.max
                    bytes.removeSubrange(low...)
                    what = "truncated at \(low)"
                case 2:
                    low = bytes.count
                    high = Int.max
                    var garbage = (0..<random.next(in: 1...64)).map { _ in UInt8(random.next(below: 256)) }
                    if random.next(below: 2) == 0 { garbage.insert(contentsOf: [0x52, 0x4A, 0x47, 0x53], at: 0) }
                    bytes += garbage
                    what = "appended \(garbage.count) bytes"
                default:
                    low = random.next(below: bytes.count)
                    high = min(low + random.next(in: 4...64), bytes.count)
                    for index in low..<high { bytes[index] = 0 }
                    what = "zeroed \(low)..<\(high)"
                }
                let directory = TemporaryDirectoryPath(under: Self.sweepBase)
                try Data(bytes).write(to: URL(fileURLWithPath: directory.path + "/journal"))
                let jobs: [StoredJob]
                do {
                    jobs = try FileJobStore(directory: directory.path).load().jobs
                } catch let error as JobStoreError where error.code == .notAJournal || error.code == .unsupportedVersion
                {
                    let target = TemporaryDirectoryPath(under: Self.sweepBase)
                    jobs = try FileJobStore.salvage(journal: directory.path + "/journal", into: target.path).jobs
                }
                let loaded = Dictionary(jobs.map { ($0.sequence, $0) }, uniquingKeysWith: { first, _ in first })
                for job in jobs {
                    guard let expected = submitted[job.sequence], expected.id == job.id,
                        expected.payload == Array(job.payload)
                    else {
                        violations.append("round \(round), \(what): fabricated or changed job \(job.id)")
                        continue
                    }
                }
                for (sequence, job) in reference.live {
                    let frames = reference.frames.filter { $0.sequence == sequence }
                    let intact = frames.allSatisfy { $0.end <= low || $0.offset >= high }
                    if intact && loaded[sequence] == nil {
                        violations.append("round \(round), \(what): intact job \(job.id) lost")
                    }
                }
            }
            #expect(violations.isEmpty, "seed \(Self.seed): \(violations.prefix(10))")
        }

        @Test("SIGKILL during compaction: no accepted job lost, none resolved back, none duplicated or changed")
        func compactionKills() throws {
            let probe = try #require(DurableCrashTests.probePath, "syncgate-durable-probe not found: run `swift build`")
            var random = SeededRandom(seed: Self.seed ^ 0x5EED)
            let directory = TemporaryDirectoryPath()
            var accepted: Set<String> = []
            var resolved: Set<String> = []
            var violations: [String] = []
            var compactions = 0
            for kill in 0..<40 {
                let process = try SpawnedProcess(probe, ["churn", directory.path, "\(Self.seed &+ UInt64(kill))"])
                defer { process.stop() }
                // Sometimes at once (during open-time compaction), else after some progress lines.
                let lines = random.next(below: 5) == 0 ? 0 : random.next(in: 1...80)
                for _ in 0..<lines { _ = try process.nextLine(within: .seconds(10)) }
                process.signal(SIGKILL)
                let (rest, _) = try process.finish(before: .now + .seconds(10))
                var submitting: String?
                var resolving: String?
                for line in process.lines + rest.split(separator: "\n").map(String.init) {
                    let parts = line.split(separator: " ").map(String.init)
                    switch parts.first {
                    case "submitting": submitting = parts[1]
                    case "accepted":
                        accepted.insert(parts[1])
                        submitting = nil
                    case "resolving": resolving = parts[1]
                    case "resolved":
                        resolved.insert(parts[1])
                        resolving = nil
                    case "error": violations.append("kill \(kill): \(line)")
                    default: break
                    }
                }
                let journal = try DurableAttackSupport.read(directory.path)
                let live = journal.liveIDs
                if journal.live.count != live.count { violations.append("kill \(kill): an id is stored twice") }
                for id in accepted.subtracting(resolved) where id != resolving && !live.contains(id) {
                    violations.append("kill \(kill): accepted \(id) is lost")
                }
                for id in resolved.intersection(live) { violations.append("kill \(kill): resolved \(id) came back") }
                for job in journal.live.values {
                    if !accepted.contains(job.id) && job.id != submitting {
                        violations.append("kill \(kill): \(job.id) was never submitted")
                    }
                    if job.payload != Array(#"{"text":"churn \#(job.id)"}"#.utf8) {
                        violations.append("kill \(kill): the payload of \(job.id) changed")
                    }
                }
                if let resolving, !live.contains(resolving) { resolved.insert(resolving) }
                if let submitting, live.contains(submitting) { accepted.insert(submitting) }
                if journal.frames.count == journal.live.count { compactions += 1 }
                if violations.count > 20 { break }
            }
            // The store, opened here, agrees with the independent reader.
            let journal = try DurableAttackSupport.read(directory.path)
            let store = try FileJobStore(directory: directory.path)
            #expect(Set(try store.load().jobs.map(\.id)) == journal.liveIDs)
            #expect(violations.isEmpty, "seed \(Self.seed): \(violations.prefix(10))")
            print("durable compaction kills: \(accepted.count) jobs, \(compactions) kills right after a compaction")
        }
    }
#endif
