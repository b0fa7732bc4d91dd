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
            var inTask: [Bool] = []
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
        /// Whether each call so far ran in a task, holding a thread of the Swift pool.
        var inTask: [Bool] { state.withLock { $0.inTask } }

        func sync(_ fd: Int32, _ path: String) throws {
            let length = try recordsLength(of: path)
            let inTask = withUnsafeCurrentTask { $0 != nil }
            let number = state.withLock { state in
                state.lengths.append(length)
                state.inTask.append(inTask)
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

/// Group commit for submissions that suspend (`appendWithoutBlocking`): they share syncs with each other and
/// with blocking submitters, a failed sync withdraws them, and none holds a thread of the Swift pool while
/// it waits.
@Suite("FileJobStore group commit, suspended submitters", .ownThread, .timeLimit(.minutes(1)))
struct FileJobStoreSuspendedCommitTests {
    typealias ScriptedSync = FileJobStoreGroupCommitTests.ScriptedSync

    let directory = TemporaryDirectory()

    /// A task that appends a submission without blocking; its value is the outcome.
    typealias Submitter = Task<Result<Void, JobStoreError>, Never>

    /// Starts a task that appends submission `sequence` without blocking.
    func suspendedSubmitter(_ sequence: UInt64, on store: FileJobStore) -> Submitter {
        Task.detached {
            do {
                try await store.appendWithoutBlocking(.submitted(plainJob(sequence)))
                return .success(())
            } catch let error as JobStoreError {
                return .failure(error)
            } catch {
                return .failure(JobStoreError(.ioFailure, path: "", cause: "\(error)"))
            }
        }
    }

    /// Starts suspended submitter 1, whose sync pauses, then submitters 2…`count` (every other one blocking
    /// when `mixed`), and returns once all have written; the blocking ones' results come from `threads`.
    func submitWhileTheFirstSyncPauses(
        _ count: UInt64, mixed: Bool, store: FileJobStore, sync: ScriptedSync
    ) throws -> (tasks: [UInt64: Submitter], threads: FileJobStoreGroupCommitTests.Submitters) {
        var tasks: [UInt64: Submitter] = [1: suspendedSubmitter(1, on: store)]
        let threads = FileJobStoreGroupCommitTests.Submitters()
        sync.began.wait()
        // A sync run by the submitting task would hold a thread of the pool: with every thread held, the
        // submitters below could not all write.
        let inTask = sync.inTask == [true]
        if inTask { sync.release.signal() }
        try #require(!inTask, "the first submission's sync ran in its task, holding a thread of the pool")
        for sequence in 2...count {
            if mixed && sequence.isMultiple(of: 2) {
                threads.start(sequence, on: store)
            } else {
                tasks[sequence] = suspendedSubmitter(sequence, on: store)
            }
        }
        // The store's lock alone (the sync lock is held by the paused sync): a condition, not a time.
        while try store.load().jobs.count < Int(count) { sched_yield() }
        return (tasks, threads)
    }

    @Test(
        "submissions written while a sync ran share the next sync, suspended or blocking alike",
        arguments: [false, true])
    func writtenDuringASyncShareTheNext(mixed: Bool) async throws {
        let sync = ScriptedSync(failing: [])
        let store = try FileJobStore(directory: directory.path, clock: ManualClock(), syncData: sync.sync)
        // More suspended submitters than the pool has threads: had they blocked, not all could write.
        let count = UInt64(ProcessInfo.processInfo.activeProcessorCount * 2 + 2)
        let (tasks, threads) = try submitWhileTheFirstSyncPauses(count, mixed: mixed, store: store, sync: sync)
        let submitted = try recordsLength(of: directory.journal)
        sync.release.signal()

        for (sequence, task) in tasks {
            #expect((try? await task.value.get()) != nil, "submission \(sequence)")
        }
        #expect(threads.results().values.allSatisfy { (try? $0.get()) != nil })
        // The first sync covered submission 1; one more covered every other, written while it ran.
        #expect(sync.lengths == [sync.lengths[0], submitted])
        #expect(sync.inTask == [false, false])
        #expect(store.statistics.syncedBytes == submitted)
        try store.close()
        let stored = try FileJobStore(directory: directory.path).load().jobs.map(\.sequence).sorted()
        #expect(stored == Array(1...count))
    }

    @Test("a failed sync withdraws every suspended submission waiting for it, and each gets its error")
    func failedSyncWithdrawsSuspendedSubmissions() async throws {
        let sync = ScriptedSync(failing: [1])
        let store = try FileJobStore(directory: directory.path, clock: ManualClock(), syncData: sync.sync)
        let (tasks, _) = try submitWhileTheFirstSyncPauses(6, mixed: false, store: store, sync: sync)
        sync.release.signal()

        #expect(tasks.count == 6)
        for (sequence, task) in tasks {
            guard case .failure(let error) = await task.value else {
                Issue.record("submission \(sequence) returned, yet the sync that covered it failed")
                continue
            }
            #expect(error.cause.contains("Input/output error (scripted)"), "\(error)")
        }
        // No one synced again after the failure: a later sync might report success for the lost pages.
        #expect(sync.lengths.count == 1)
        #expect(try store.load().jobs.isEmpty)

        // The next suspended submission syncs afresh and is the only job left.
        #expect((try? await suspendedSubmitter(7, on: store).value.get()) != nil)
        #expect(sync.lengths.count == 2)
        try store.close()
        #expect(try FileJobStore(directory: directory.path).load().jobs.map(\.sequence) == [7])
    }

    @Test("with batched durability a suspended submission returns written and unsynced; after close() it throws")
    func batchedAndClosed() async throws {
        let sync = ScriptedSync(failing: [], pausing: [])
        let store = try FileJobStore(
            directory: directory.path, configuration: .init(durability: .batched(window: .seconds(5))),
            clock: ManualClock(), syncData: sync.sync)
        try await store.appendWithoutBlocking(.submitted(plainJob(1)))
        #expect(sync.lengths.isEmpty)
        #expect(try store.load().jobs.map(\.sequence) == [1])
        try store.close()
        await #expect(throws: JobStoreError.self) { try await store.appendWithoutBlocking(.submitted(plainJob(2))) }
        #expect(try FileJobStore(directory: directory.path).load().jobs.map(\.sequence) == [1])
    }
}

/// The length of the records in the journal at `path`, without the space allocated after them.
private func recordsLength(of path: String) throws -> Int {
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    let scan = bytes.withUnsafeBytes { JournalScan($0, path: path) }
    #expect(scan.issues.isEmpty)
    return scan.validLength
}
