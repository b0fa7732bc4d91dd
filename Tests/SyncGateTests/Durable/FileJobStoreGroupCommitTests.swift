import Foundation
import SyncGateTestSupport
import SyncGateTesting
import Testing

@testable import SyncGateCore
@testable import SyncGateDurable

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Group commit in FileJobStore: concurrent synchronous submissions share syncs, and a failed sync takes
/// back every submission waiting for it. A sync seam pauses the first sync until the other submitters have
/// written, so the grouping is the same on every run.
@Suite("FileJobStore group commit", .ownThread, .timeLimit(.minutes(1)))
struct FileJobStoreGroupCommitTests {
    /// A sync that records each call (the length of the file's records then), pauses the calls listed in `pausing` until
    /// released, and fails those listed in `failing` (calls numbered from 1) with an I/O error; the others
    /// call `fdatasync`.
    final class ScriptedSync: Sendable {
        private struct State {
            var lengths: [Int] = []
        }

        let failing: Set<Int>
        let pausing: Set<Int>
        private let state = LockedState(State())
        /// Signalled when a paused sync has begun.
        let began = DispatchSemaphore(value: 0)
        /// Signalled by the test to let a paused sync finish.
        let release = DispatchSemaphore(value: 0)

        init(failing: Set<Int>, pausing: Set<Int> = [1]) {
            self.failing = failing
            self.pausing = pausing
        }

        /// The length of the file's records at each call so far.
        var lengths: [Int] { state.withLock { $0.lengths } }

        func sync(_ fd: Int32, _ path: String) throws {
            let length = try recordsLength(of: path)
            let number = state.withLock { state in
                state.lengths.append(length)
                return state.lengths.count
            }
            if pausing.contains(number) {
                began.signal()
                release.wait()
            }
            if failing.contains(number) {
                throw JobStoreError(.ioFailure, path: path, cause: "sync failed: Input/output error (scripted)")
            }
            try POSIXFile.syncData(fd, path: path)
        }
    }

    /// Submitters on threads of their own, each appending one synchronous submission.
    final class Submitters: Sendable {
        private let outcomes = LockedState([UInt64: Result<Void, JobStoreError>]())
        private let group = DispatchGroup()

        func start(_ sequence: UInt64, on store: FileJobStore) {
            group.enter()
            Thread { [outcomes, group] in
                let result: Result<Void, JobStoreError>
                do {
                    try store.append(.submitted(plainJob(sequence)))
                    result = .success(())
                } catch let error as JobStoreError {
                    result = .failure(error)
                } catch {
                    result = .failure(JobStoreError(.ioFailure, path: "", cause: "\(error)"))
                }
                outcomes.withLock { outcomes in
                    precondition(outcomes[sequence] == nil, "submitter \(sequence) returned twice")
                    outcomes[sequence] = result
                }
                group.leave()
            }.start()
        }

        /// Each submitter's result, once all have returned.
        func results() -> [UInt64: Result<Void, JobStoreError>] {
            group.wait()
            return outcomes.withLock { $0 }
        }
    }

    let directory = TemporaryDirectory()

    /// Starts submitter 1, whose sync pauses, then submitters 2…`count`, and returns once all have written.
    func submitWhileTheFirstSyncPauses(_ count: UInt64, store: FileJobStore, sync: ScriptedSync) throws -> Submitters {
        let submitters = Submitters()
        submitters.start(1, on: store)
        sync.began.wait()
        for sequence in 2...count { submitters.start(sequence, on: store) }
        // The store's lock alone (the sync lock is held by the paused sync): a condition, not a time.
        while try store.load().jobs.count < Int(count) { sched_yield() }
        return submitters
    }

    @Test(
        "submitters that wrote while a sync ran share the next sync, and return without another when records came after it began"
    )
    func waitingSubmittersShareOneSync() throws {
        let sync = ScriptedSync(failing: [], pausing: [1, 2])
        let store = try FileJobStore(directory: directory.path, clock: ManualClock(), syncData: sync.sync)
        let submitters = try submitWhileTheFirstSyncPauses(8, store: store, sync: sync)
        // Read from the file: statistics would wait for the sync lock, which the paused sync holds.
        let submitted = try recordsLength(of: directory.journal)
        sync.release.signal()
        // One of the 7 leads the second sync; while it runs, another record is written.
        sync.began.wait()
        try store.append(.attemptStarted(sequence: 1, attempt: 1))
        sync.release.signal()
        let results = submitters.results()

        #expect(results.count == 8)
        #expect(results.values.allSatisfy { (try? $0.get()) != nil })
        // The first sync covered submission 1; the second the 7 written while the first ran. The other 6
        // returned without a sync of their own, though the file had grown since the second began.
        #expect(sync.lengths.count == 2)
        #expect(sync.lengths.last == submitted)
        #expect(store.statistics.syncedBytes == submitted)
        #expect(store.statistics.bytes > submitted)
        try store.close()
        #expect(try FileJobStore(directory: directory.path).load().jobs.map(\.sequence).sorted() == Array(1...8))
    }

    @Test("a failed sync withdraws every submission waiting for it, and each of their submitters gets its error")
    func failedSyncWithdrawsEveryWaitingSubmission() throws {
        let sync = ScriptedSync(failing: [1])
        let store = try FileJobStore(directory: directory.path, clock: ManualClock(), syncData: sync.sync)
        let submitters = try submitWhileTheFirstSyncPauses(8, store: store, sync: sync)
        sync.release.signal()
        let results = submitters.results()

        #expect(results.count == 8)
        for (sequence, result) in results {
            guard case .failure(let error) = result else {
                Issue.record("submission \(sequence) returned, yet the sync that covered it failed")
                continue
            }
            #expect(error.cause.contains("Input/output error (scripted)"), "\(error)")
        }
        // No one synced again after the failure: a later sync might report success for the lost pages.
        #expect(sync.lengths.count == 1)
        #expect(try store.load().jobs.isEmpty)

        // The next submission syncs afresh and is the only job left.
        try store.append(.submitted(plainJob(9)))
        #expect(sync.lengths.count == 2)
        try store.close()
        #expect(try FileJobStore(directory: directory.path).load().jobs.map(\.sequence) == [9])
    }

    @Test("a failed sync() withdraws the synchronous submission waiting behind it; a later one is kept")
    func failedExplicitSyncWithdrawsTheWaitingSubmission() throws {
        let sync = ScriptedSync(failing: [1])
        let store = try FileJobStore(directory: directory.path, clock: ManualClock(), syncData: sync.sync)
        try store.append(.attemptStarted(sequence: 1, attempt: 1))
        let syncing = Thread { _ = try? store.sync() }
        syncing.start()
        sync.began.wait()
        let submitters = Submitters()
        submitters.start(2, on: store)
        while try store.load().jobs.isEmpty { sched_yield() }
        sync.release.signal()

        let result = try #require(submitters.results()[2])
        #expect(throws: JobStoreError.self) { try result.get() }
        #expect(try store.load().jobs.isEmpty)
        try store.append(.submitted(plainJob(3)))
        try store.close()
        #expect(try FileJobStore(directory: directory.path).load().jobs.map(\.sequence) == [3])
    }
}

/// The length of the records in the journal at `path`, without the space allocated after them.
private func recordsLength(of path: String) throws -> Int {
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    let scan = bytes.withUnsafeBytes { JournalScan($0, path: path) }
    #expect(scan.issues.isEmpty)
    return scan.validLength
}
