import Foundation
import SyncGateTesting
import Testing

@testable import SyncGateCore
@testable import SyncGateDurable

/// FileJobStore when a sync fails: of the directory after a compaction's rename, or of the journal's data.
/// Sync seams fail the calls a test lists; the store is then closed and opened again, as the next run
/// would, and every acknowledged record must be there.
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
            #expect(error.path == directory.path)
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
}

/// The unresolved jobs' sequence numbers in the journal file at `path`, read as the next opener would.
private func jobs(inFileAt path: String) throws -> [UInt64] {
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    var replay = JournalReplay()
    let scan = bytes.withUnsafeBytes { JournalScan($0, path: path) { replay.apply($0) } }
    #expect(scan.issues.isEmpty)
    return replay.orderedJobs.map(\.sequence)
}
