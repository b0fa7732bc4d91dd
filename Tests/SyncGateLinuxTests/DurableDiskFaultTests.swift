#if os(Linux)
    import Foundation
    import Glibc
    import SyncGate
    import SyncGateTesting
    import SyncGateTestSupport
    import Testing

    /// The payload of the attack tests' jobs (the probe's `Note`).
    struct Note: Codable, Sendable, Equatable {
        var text: String
    }

    /// The durable store on a full disk (a small tmpfs) and with an `fdatasync` that fails (an LD_PRELOAD
    /// shim in the probe): an accepted job is exactly one whose `submit` returned. The journal is checked by
    /// ``IndependentJournalReader``.
    @Suite(
        "Durable store on a full disk and a failing sync", .startsProcesses,
        .enabled(if: DurableAttackSupport.isEnabled, DurableAttackSupport.skipComment), .serialized,
        .timeLimit(.minutes(3)))
    struct DurableDiskFaultTests {
        func note(_ number: Int) -> DurableJob<Note> {
            DurableJob(
                id: "n\(number)", kind: "note", payload: Note(text: String(repeating: "\(number % 10)", count: 1000)),
                requires: [], conditions: ["never-set"])
        }

        @Test(
            "full disk: a submit that throws leaves no trace, one that returns is kept, failed resolutions are retried, the store opens"
        )
        func fullDisk() async throws {
            try DurableAttackSupport.requireAvailable()
            let disk = try TinyDisk(bytes: 256 << 10)
            let directory = disk.path + "/jobs"
            let clock = ManualClock()
            let store = try FileJobStore(directory: directory, configuration: .init(compactionMinimumDeadRecords: 16))
            let scheduler = SyncScheduler(environment: ManualSyncEnvironment(clock: clock).environment, clock: clock)
            let durable = DurableScheduler(scheduler: scheduler, store: store)
            try durable.register("note", payload: Note.self) { _, _ in }
            try durable.restoreJobs()
            let failures = durable.writeFailures

            var handles: [String: SyncJobHandle] = [:]
            for number in 0..<100 { handles["n\(number)"] = try durable.submit(note(number)) }
            // Compaction is due once 70 resolve, and cannot be done in the 8 KiB left.
            let nearlyFull = disk.fill(leaving: 8 << 10)
            var cancelled: Set<String> = []
            for number in 0..<70 {
                let handle = try #require(handles["n\(number)"])
                handle.cancel()
                #expect(try await handle.outcome().state == .cancelled)
                cancelled.insert(handle.id)
            }
            var refused: Set<String> = []
            for number in 100..<103 {
                do {
                    handles["n\(number)"] = try durable.submit(note(number))
                } catch {
                    refused.insert("n\(number)")
                }
            }
            let afterSubmits = try DurableAttackSupport.read(directory)
            #expect(afterSubmits.liveIDs.isDisjoint(with: refused), "a submit threw, yet its job is stored")
            #expect(try store.load().jobs.map(\.id).allSatisfy { !refused.contains($0) })

            // Resolutions on a disk with nothing left: each failure is reported, then written once there is room.
            let full = disk.fill()
            // Small submissions take what is left of the space the journal allocated ahead of its records
            // and of its last page, until one is refused (each takes over 64 bytes).
            let enough = 4 * FileJobStore.allocationStep / 64
            for number in 0..<enough {
                let small = DurableJob(
                    id: "f\(number)", kind: "note", payload: Note(text: ""), requires: [], conditions: ["never-set"])
                do {
                    handles[small.id] = try durable.submit(small)
                } catch {
                    refused.insert(small.id)
                    break
                }
            }
            #expect(try DurableAttackSupport.read(directory).liveIDs.isDisjoint(with: refused))
            for number in 70..<100 {
                let handle = try #require(handles["n\(number)"])
                handle.cancel()
                #expect(try await handle.outcome().state == .cancelled)
                cancelled.insert(handle.id)
            }
            let pending = durable.snapshot().pendingWrites
            #expect(pending > 0, "no resolution write failed on the full disk")
            var iterator = failures.makeAsyncIterator()
            for _ in 0..<pending {
                let failure = try #require(await iterator.next())
                #expect(failure.description.contains("No space left on device"))
            }
            try FileManager.default.removeItem(atPath: full)
            try FileManager.default.removeItem(atPath: nearlyFull)
            try durable.retryPendingWrites()
            #expect(durable.snapshot().pendingWrites == 0)
            let expected = Set(handles.keys).subtracting(cancelled).subtracting(refused)
            #expect(try DurableAttackSupport.read(directory).liveIDs == expected)
            try store.close()
            let reopened = try FileJobStore(directory: directory)
            #expect(Set(try reopened.load().jobs.map(\.id)) == expected)
            for job in try reopened.load().jobs {
                let payload = job.id.hasPrefix("f") ? Note(text: "") : note(Int(job.id.dropFirst()) ?? -1).payload
                #expect(Array(job.payload) == Array(try JSONEncoder().encode(payload)))
            }
        }

        @Test(
            "full disk: with compaction due and a stale compaction file, the store opens and reads the journal as it is"
        )
        func fullDiskOpen() async throws {
            try DurableAttackSupport.requireAvailable()
            let disk = try TinyDisk(bytes: 256 << 10)
            let directory = disk.path + "/jobs"
            let clock = ManualClock()
            let store = try FileJobStore(directory: directory, configuration: .init(compactionMinimumDeadRecords: 16))
            let scheduler = SyncScheduler(environment: ManualSyncEnvironment(clock: clock).environment, clock: clock)
            let durable = DurableScheduler(scheduler: scheduler, store: store)
            try durable.register("note", payload: Note.self) { _, _ in }
            try durable.restoreJobs()
            var handles: [SyncJobHandle] = []
            for number in 0..<60 { handles.append(try durable.submit(note(number))) }
            for handle in handles.prefix(30) {
                handle.cancel()
                #expect(try await handle.outcome().state == .cancelled)
            }
            try store.close()
            let expected = Set(handles.suffix(30).map(\.id))
            try Data(count: 4 << 10).write(to: URL(fileURLWithPath: directory + "/journal.tmp"))
            disk.fill()

            let reopened = try FileJobStore(
                directory: directory, configuration: .init(compactionMinimumDeadRecords: 16))
            #expect(!FileManager.default.fileExists(atPath: directory + "/journal.tmp"))
            #expect(Set(try reopened.load().jobs.map(\.id)) == expected)
            #expect(try DurableAttackSupport.read(directory).liveIDs == expected)
            #expect(reopened.lastBackgroundError?.cause.contains("No space left on device") == true)
        }

        @Test(
            "full disk: a journal of an older format version opens and restores as it is, refuses records until it can be rewritten, then takes them"
        )
        func fullDiskOlderVersion() async throws {
            try DurableAttackSupport.requireAvailable()
            let disk = try TinyDisk(bytes: 256 << 10)
            let directory = disk.path + "/jobs"
            // A journal written by format version 6, checked in beside the durable layer's tests.
            let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../SyncGateTests/Durable/Golden/v6-records.journal")
            let bytes = try Data(contentsOf: golden)
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
            try bytes.write(to: URL(fileURLWithPath: directory + "/journal"))
            let filler = disk.fill()

            let store = try FileJobStore(directory: directory)
            #expect(store.lastBackgroundError?.cause.contains("No space left on device") == true)
            #expect(try store.load().jobs.count == 16)
            let clock = ManualClock()
            let scheduler = SyncScheduler(environment: ManualSyncEnvironment(clock: clock).environment, clock: clock)
            let durable = DurableScheduler(scheduler: scheduler, store: store)
            try durable.register("note", payload: Note.self) { _, _ in }
            let report = try durable.restoreJobs()
            #expect(report.kept.count == 16)
            do {
                _ = try durable.submit(note(1))
                Issue.record("a record of the current format went into a journal of version 6, or onto a full disk")
            } catch {
                #expect("\(error)".contains("older format version"), "\(error)")
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: directory + "/journal")) == bytes)

            #expect(unlink(filler) == 0)
            let handle = try durable.submit(note(2))
            _ = await durable.shutdown(gracePeriod: .zero)
            let reopened = try FileJobStore(directory: directory)
            #expect(Set(try reopened.load().jobs.map(\.id)).isSuperset(of: [handle.id]))
            #expect(try reopened.load().jobs.count == 17)
            #expect(reopened.lastBackgroundError == nil)
        }

        @Test(
            "failing fdatasync: a submit that throws is not restored; every one that returned is (one and 8 submitters, threads or tasks)"
        )
        func failingSync() throws {
            try DurableAttackSupport.requireAvailable()
            let probe = try #require(DurableCrashTests.probePath)
            let directory = TemporaryDirectoryPath()
            let shim = try DurableAttackSupport.buildShim(in: directory.path)
            let store = directory.path + "/jobs"
            var accepted: Set<String> = []
            var refused: [String] = []
            // The journal's creation takes the first sync, each submission one more (one submitter); 8
            // submitters share syncs, so a failed one withdraws every submission waiting for it. The last two
            // runs' submitters are tasks that suspend (`submitWithoutBlocking`), whose syncs a syncer runs.
            for (first, failAfter, submitters, kind) in [
                (0, 5, 1, "threads"), (100, 2, 1, "threads"), (200, 4, 8, "threads"), (300, 3, 1, "tasks"),
                (400, 4, 8, "tasks"),
            ] {
                let process = try SpawnedProcess(
                    probe, ["submit", store, "\(first)", submitters == 8 ? "48" : "12", "\(submitters)", kind],
                    environment: [
                        "LD_PRELOAD": shim, "SYNCGATE_SHIM_FAIL_AFTER": "\(failAfter)", "SYNCGATE_SHIM_FAIL_COUNT": "3",
                    ])
                defer { process.stop() }
                let (rest, status) = try process.finish(before: .now + .seconds(20))
                #expect(status == 0, "\(process.stderrText)")
                let lines = rest.split(separator: "\n").map(String.init)
                #expect(lines.last == "done", "\(lines)")
                for line in lines {
                    let parts = line.split(separator: " ", maxSplits: 2).map(String.init)
                    if parts.first == "accepted" { accepted.insert(parts[1]) }
                    if parts.first == "refused" {
                        refused.append(parts[1])
                        #expect(line.contains("sync failed: Input/output error"), "\(line)")
                    }
                }
            }
            #expect(refused.count >= 4, "the shim failed too few submissions")
            #expect(try DurableAttackSupport.read(store).liveIDs == accepted)
            let reopened = try FileJobStore(directory: store)
            #expect(Set(try reopened.load().jobs.map(\.id)) == accepted)
        }
    }
#endif
