import Foundation
import SyncGateTesting
import Testing

@testable import SyncGateCore
@testable import SyncGateDurable

/// FileJobStore when a sync fails: of the directory after a compaction's rename, or of the journal's data.
/// Sync seams fail the calls a test lists (a failed data sync also drops what it did not write, as the
/// kernel may); the store is then closed and opened again, as the next run would, and every acknowledged
/// record must be there.
@Suite("FileJobStore sync failures", .timeLimit(.minutes(1)))
struct FileJobStoreSyncFailureTests {
    /// A directory sync that fails the calls listed in `failing` (numbered from 1) with an I/O error, and
    /// calls `fsync` for the others.
    final class ScriptedDirectorySync: Sendable {
        let failing: Set<Int>
        private let calls = LockedState(0)

        init(failing: Set<Int>) {
            self.failing = failing
        }

        /// The number of calls so far.
        var count: Int { calls.withLock { $0 } }

        func sync(_ fd: Int32, _ path: String) throws {
            let number = calls.withLock { calls in
                calls += 1
                return calls
            }
            if failing.contains(number) {
                throw JobStoreError(
                    .ioFailure, path: path, cause: "directory sync failed: Input/output error (scripted)")
            }
            try POSIXFile.syncDirectory(fd, path: path)
        }
    }

    /// A data sync that fails the calls listed in `failing` (numbered from 1) with an I/O error after
    /// zeroing the records written since its last successful call: the file then reads as the disk would
    /// after the kernel dropped the pages whose writeback failed. The other calls call `fdatasync`.
    final class DroppingSync: Sendable {
        let failing: Set<Int>
        private struct State {
            var calls = 0
            /// The length of the file's records at the last successful call.
            var synced = JournalCodec.headerLength
        }
        private let state = LockedState(State())

        init(failing: Set<Int>) {
            self.failing = failing
        }

        /// The number of calls so far.
        var count: Int { state.withLock { $0.calls } }

        func sync(_ fd: Int32, _ path: String) throws {
            let length = try recordsLength(of: path)
            let (number, synced) = state.withLock { state in
                state.calls += 1
                return (state.calls, state.synced)
            }
            guard failing.contains(number) else {
                try POSIXFile.syncData(fd, path: path)
                state.withLock { $0.synced = length }
                return
            }
            if length > synced {
                try POSIXFile.writeAll(fd, [UInt8](repeating: 0, count: length - synced), at: synced, path: path)
            }
            throw JobStoreError(.ioFailure, path: path, cause: "sync failed: Input/output error (scripted)")
        }
    }

    let directory = TemporaryDirectory()

    @Test(
        "a compaction whose directory sync fails after its rename: later records go to the new journal, and no submission is acknowledged before the journal's name is on disk"
    )
    func directorySyncFailsAfterTheRename() throws {
        let directorySync = ScriptedDirectorySync(failing: [1, 2])
        let store = try FileJobStore(
            directory: directory.path, configuration: .init(compactionMinimumDeadRecords: 4), clock: ManualClock(),
            syncData: { fd, path in try POSIXFile.syncData(fd, path: path) }, syncDirectory: directorySync.sync)
        for sequence in 1...8 { try store.append(.submitted(plainJob(UInt64(sequence)))) }
        for sequence in 1...6 { try store.append(.resolved(sequence: UInt64(sequence), resolution: .succeeded)) }
        #expect(directorySync.count == 0)

        // Dead records outweigh live ones: the submission's compaction renames, then its directory sync fails.
        try store.append(.submitted(plainJob(9)))
        #expect(directorySync.count == 1)
        let compactionError = try #require(store.lastBackgroundError)
        #expect(compactionError.description.contains("Input/output error (scripted)"), "\(compactionError)")
        // The record is in the file the journal's name leads to, not in the one the rename replaced.
        try store.append(.resolved(sequence: 7, resolution: .cancelled))
        #expect(try jobs(inFileAt: directory.journal) == [8, 9])

        // The rename may not be on disk yet: a submission is not acknowledged before a directory sync succeeds.
        do {
            try store.append(.submitted(plainJob(10)))
            Issue.record("submission 10 was acknowledged, yet the journal's name may not be on disk")
        } catch let error as JobStoreError {
            #expect(error.path == directory.journal)
            #expect(error.cause.contains("Input/output error (scripted)"), "\(error)")
        }
        #expect(directorySync.count == 2)
        try store.append(.resolved(sequence: 8, resolution: .failed))
        #expect(try jobs(inFileAt: directory.journal) == [9])
        try store.close()
        #expect(directorySync.count == 3)

        let contents = try FileJobStore(directory: directory.path).load()
        #expect(contents.issues.isEmpty)
        #expect(contents.jobs.map(\.sequence) == [9])
    }

    @Test(
        "a journal of an older version whose upgrade at opening fails after the rename still opens, reads its jobs, and acknowledges nothing until the directory is synced"
    )
    func olderVersionUpgradeFailsAfterTheRename() throws {
        try directory.write(
            Array(try Data(contentsOf: URL(fileURLWithPath: GoldenJournal.path("v6-records.journal")))),
            to: directory.journal)
        let directorySync = ScriptedDirectorySync(failing: [1, 2])
        let store = try FileJobStore(
            directory: directory.path, clock: ManualClock(),
            syncData: { fd, path in try POSIXFile.syncData(fd, path: path) }, syncDirectory: directorySync.sync)
        #expect(directorySync.count == 1)
        #expect(store.lastBackgroundError?.description.contains("Input/output error (scripted)") == true)
        let before = try store.load().jobs
        #expect(before.count == 16)
        #expect(Array(try directory.bytes(of: directory.journal).prefix(8)) == JournalCodec.header)
        // The new name may not be on disk: the submission waits for a rewrite whose directory sync fails.
        #expect(throws: JobStoreError.self) { try store.append(.submitted(plainJob(1_000))) }
        #expect(directorySync.count == 2)
        try store.append(.submitted(plainJob(1_001)))
        try store.close()
        let reopened = try FileJobStore(directory: directory.path)
        #expect(try reopened.load().jobs.map(\.sequence) == before.map(\.sequence) + [1_001])
        try reopened.close()
    }

    @Test(
        "batched: after a sync that failed and dropped what it did not write, every acknowledged submission and resolution is restored"
    )
    func failedBatchedSyncLosesNothingAcknowledged() throws {
        let dataSync = DroppingSync(failing: [2])
        let store = try FileJobStore(
            directory: directory.path, configuration: .init(durability: .batched(window: .seconds(60))),
            clock: ManualClock(), syncData: dataSync.sync)
        for sequence in 1...3 { try store.append(.submitted(plainJob(UInt64(sequence)))) }
        try store.sync()
        try store.append(.resolved(sequence: 2, resolution: .succeeded))
        try store.append(.attemptStarted(sequence: 3, attempt: 1))
        for sequence in 4...5 { try store.append(.submitted(plainJob(UInt64(sequence)))) }

        // The sync fails: the records written since the first are gone from the disk, not from memory. The
        // journal is written afresh from memory, so the sync does not throw.
        #expect(throws: Never.self) { try store.sync() }
        #expect(dataSync.count == 2)
        #expect(store.lastBackgroundError?.cause.contains("Input/output error (scripted)") == true)
        #expect(try jobs(inFileAt: directory.journal) == [1, 3, 4, 5])
        try store.append(.submitted(plainJob(6)))
        try store.sync()
        #expect(dataSync.count == 3)
        #expect(store.statistics.syncedBytes == store.statistics.bytes)
        try store.close()

        let contents = try FileJobStore(directory: directory.path).load()
        #expect(contents.issues.isEmpty)
        #expect(contents.jobs.map(\.sequence) == [1, 3, 4, 5, 6])
        #expect(contents.jobs.first { $0.sequence == 3 }?.lastStartedAttempt == 1)
    }

    @Test(
        "a failed sync that the journal cannot be written afresh after: the submission throws saying so, later records are refused naming the journal until a rewrite succeeds"
    )
    func failedSyncWithoutARewriteRefusesRecords() throws {
        let dataSync = DroppingSync(failing: [2])
        let store = try FileJobStore(
            directory: directory.path, clock: ManualClock(), syncData: dataSync.sync)
        try store.append(.submitted(plainJob(1)))
        // The rewrite's temporary file cannot be created while a directory holds its name.
        let blocker = directory.journal + ".tmp"
        try FileManager.default.createDirectory(atPath: blocker, withIntermediateDirectories: false)

        let withdrawn = try #require(throws: JobStoreError.self) { try store.append(.submitted(plainJob(2))) }
        #expect(withdrawn.path == directory.journal)
        #expect(withdrawn.cause.contains("Input/output error (scripted)"), "\(withdrawn)")
        #expect(withdrawn.cause.contains("may restore it"), "\(withdrawn)")
        let refused = try #require(throws: JobStoreError.self) {
            try store.append(.resolved(sequence: 1, resolution: .succeeded))
        }
        #expect(refused.path == directory.journal)
        #expect(refused.cause.contains("Input/output error (scripted)"), "\(refused)")
        #expect(refused.cause.contains(blocker), "\(refused)")
        #expect(throws: JobStoreError.self) { try store.sync() }
        #expect(dataSync.count == 2)
        #expect(try store.load().jobs.map(\.sequence) == [1])

        // Once the journal can be written afresh, the next record goes into the new file.
        try FileManager.default.removeItem(atPath: blocker)
        try store.append(.submitted(plainJob(3)))
        #expect(dataSync.count == 3)
        try store.append(.resolved(sequence: 1, resolution: .succeeded))
        try store.close()
        #expect(try FileJobStore(directory: directory.path).load().jobs.map(\.sequence) == [3])
    }

    @Test(
        "a suspended submission that finds the journal to be written afresh has it written off the Swift pool, then goes into the new file"
    )
    func suspendedSubmissionRewritesOffThePool() async throws {
        let dataSync = DroppingSync(failing: [2])
        let directorySyncs = LockedState([Bool]())
        let store = try FileJobStore(
            directory: directory.path, clock: ManualClock(), syncData: dataSync.sync,
            syncDirectory: { fd, path in
                let inTask = withUnsafeCurrentTask { $0 != nil }
                directorySyncs.withLock { $0.append(inTask) }
                try POSIXFile.syncDirectory(fd, path: path)
            })
        try store.append(.submitted(plainJob(1)))
        let blocker = directory.journal + ".tmp"
        try FileManager.default.createDirectory(atPath: blocker, withIntermediateDirectories: false)
        #expect(throws: JobStoreError.self) { try store.append(.submitted(plainJob(2))) }
        try FileManager.default.removeItem(atPath: blocker)
        let before = directorySyncs.withLock { $0.count }

        try await store.appendWithoutBlocking(.submitted(plainJob(3)))
        // The rewrite synced the directory for the new file's name, on the syncing thread.
        let rewrites = directorySyncs.withLock { Array($0.dropFirst(before)) }
        #expect(!rewrites.isEmpty)
        #expect(rewrites.allSatisfy { !$0 }, "directory syncs in a task: \(rewrites)")
        #expect(try store.load().jobs.map(\.sequence) == [1, 3])
        try store.close()
        #expect(try FileJobStore(directory: directory.path).load().jobs.map(\.sequence) == [1, 3])
    }
}

/// The unresolved jobs' sequence numbers in the journal file at `path`, read as the next opener would.
private func jobs(inFileAt path: String) throws -> [UInt64] {
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    var replay = JournalReplay()
    let scan = bytes.withUnsafeBytes { JournalScan($0, path: path) { replay.apply($0) } }
    #expect(scan.issues.isEmpty)
    return replay.orderedJobs.map(\.sequence)
}

/// The length of the records in the journal at `path`, without the space allocated after them.
private func recordsLength(of path: String) throws -> Int {
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    return bytes.withUnsafeBytes { JournalScan($0, path: path).validLength }
}
