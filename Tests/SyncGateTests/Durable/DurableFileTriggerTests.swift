import Foundation
import SyncGate
import SyncGateTesting
import Testing

/// Durable file-triggered jobs across "restarts" (a store closed and a new scheduler and store opened on
/// its directory): the trigger and the counts survive, and a change made while no process watched is
/// noticed from the files' change times at restore. The watcher is the manual seam; the files are real.
@Suite("Durable file-triggered jobs", .timeLimit(.minutes(1)))
struct DurableFileTriggerTests {
    let directory = TemporaryDirectory()
    let watched = TemporaryDirectory()
    let clock = ManualClock()
    let wall = ManualWallClock()

    struct Run {
        let files: ManualFileWatcher
        let scheduler: SyncScheduler
        let durable: DurableScheduler
        let store: FileJobStore
        let operation = ControlledOperation()

        func stop() async throws {
            await scheduler.shutdown(gracePeriod: .zero)
            try store.close()
        }
    }

    init() {
        // The wall clock a minute ahead of the real one: the files made now are older than any run.
        wall.advance(by: Date().timeIntervalSince(wall.now) + 60)
    }

    /// A "process": a scheduler watching through `fileWatcher` (the manual watcher, ``Run/files``, when
    /// `nil`) on the store, restored.
    func start(
        failing: String? = nil, fileWatcher: (any FileChangeWatching)? = nil
    ) throws -> (Run, DurableRestoreReport) {
        let files = ManualFileWatcher()
        if let failing { files.fail(failing, with: .missing) }
        let manual = ManualSyncEnvironment(connectivity: .connected(via: .wifi), clock: clock)
        let scheduler = SyncScheduler(
            environment: manual.environment, clock: clock, fileWatcher: fileWatcher ?? files)
        let store = try FileJobStore(directory: directory.path)
        let durable = DurableScheduler(scheduler: scheduler, store: store, wallClock: wall.function)
        let run = Run(files: files, scheduler: scheduler, durable: durable, store: store)
        try durable.register("sync", payload: [String: Int].self) { _, context in
            try await run.operation.operation(context)
        }
        return (run, try durable.restoreJobs())
    }

    @Test("the trigger and counts survive a restart; with no change meanwhile the job waits, with one it runs")
    func changeWhileDownIsNoticed() async throws {
        try Data("v1".utf8).write(to: URL(fileURLWithPath: watched.path + "/doc.txt"))
        let (first, _) = try start()
        let events = first.scheduler.events
        var job = DurableJob(id: "docs", kind: "sync", payload: [String: Int]())
        job.requirements = .network
        job.fileTrigger = SyncFileTrigger(paths: [watched.path], quietPeriod: .seconds(5))
        _ = try first.durable.submit(job)
        #expect(first.files.watchedPaths == [[watched.path]])
        first.files.change(watched.path)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(5))
        await first.operation.waitForStarts(1)
        first.operation.finish()
        #expect(await nextPeriodEnd(events) == .init(succeeded: 1, failed: 0, skipped: 0))
        let stored = try #require(try first.store.load().jobs.first)
        #expect(stored.options.fileTrigger?.paths == [watched.path])
        #expect(stored.periodAnchor == wall.now)
        try await first.stop()

        // Nothing changed while it was down: the restored series waits for a change.
        let (second, report) = try start()
        #expect(report.restored.map(\.id) == ["docs"])
        #expect(second.files.watchedPaths == [[watched.path]])
        #expect(second.scheduler.job(id: "docs")?.fileWait == .change)
        #expect(second.scheduler.job(id: "docs")?.periods == .init(succeeded: 1, failed: 0, skipped: 0))
        try await second.stop()

        // A change while it was down (its time after the last run's start): the series begins with quiet.
        let later = wall.now.addingTimeInterval(3_600).timeIntervalSince1970
        var times = [timespec(tv_sec: Int(later), tv_nsec: 0), timespec(tv_sec: Int(later), tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, watched.path + "/doc.txt", &times, 0) == 0)
        let (third, _) = try start()
        let thirdEvents = third.scheduler.events
        guard case .quiet? = third.scheduler.job(id: "docs")?.fileWait else {
            Issue.record("restored job does not wait for quiet: \(String(describing: third.scheduler.job(id: "docs")))")
            return
        }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(5))
        await third.operation.waitForStarts(1)
        third.operation.finish()
        #expect(await nextPeriodEnd(thirdEvents) == .init(succeeded: 2, failed: 0, skipped: 0))
        try await third.stop()
    }

    #if os(Linux)
        /// `SystemFileWatcher` watches with inotify on Linux only; its restore-time check is what is tested.
        @Test("a change while down only inside the watcher's ignored subtree is no change at restore")
        func changeWhileDownInsideAnIgnoredSubtree() async throws {
            let state = watched.path + "/state"
            try FileManager.default.createDirectory(atPath: state + "/runs", withIntermediateDirectories: true)
            let (first, _) = try start()
            let events = first.scheduler.events
            var job = DurableJob(id: "docs", kind: "sync", payload: [String: Int]())
            job.fileTrigger = SyncFileTrigger(paths: [watched.path], quietPeriod: .seconds(5))
            _ = try first.durable.submit(job)
            first.files.change(watched.path)
            await clock.waitForSleepers(1)
            clock.advance(by: .seconds(5))
            await first.operation.waitForStarts(1)
            first.operation.finish()
            #expect(await nextPeriodEnd(events) == .init(succeeded: 1, failed: 0, skipped: 0))
            try await first.stop()

            // While it was down, only the ignored subtree changed (times after the last run's start).
            try Data("run".utf8).write(to: URL(fileURLWithPath: state + "/runs/log"))
            let later = wall.now.addingTimeInterval(3_600).timeIntervalSince1970
            for path in [state + "/runs/log", state + "/runs", state] {
                var times = [timespec(tv_sec: Int(later), tv_nsec: 0), timespec(tv_sec: Int(later), tv_nsec: 0)]
                #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
            }
            let (second, report) = try start(fileWatcher: SystemFileWatcher(ignoring: [state]))
            #expect(report.restored.map(\.id) == ["docs"])
            #expect(second.scheduler.job(id: "docs")?.fileWait == .change)
            try await second.stop()

            // A watcher that ignores nothing sees that change: the series begins with a quiet period.
            let (third, _) = try start(fileWatcher: SystemFileWatcher())
            guard case .quiet? = third.scheduler.job(id: "docs")?.fileWait else {
                Issue.record("not waiting for quiet: \(String(describing: third.scheduler.job(id: "docs")))")
                return
            }
            try await third.stop()
        }
    #endif

    @Test("a restored job whose path cannot be watched any more stays in the store, kept with the reason")
    func unwatchablePathKeepsTheJob() async throws {
        let (first, _) = try start()
        var job = DurableJob(id: "docs", kind: "sync", payload: [String: Int]())
        job.fileTrigger = SyncFileTrigger(paths: [watched.path], quietPeriod: .seconds(5))
        _ = try first.durable.submit(job)
        try await first.stop()

        let (second, report) = try start(failing: watched.path)
        #expect(report.restored.isEmpty)
        let kept = try #require(report.kept.first)
        #expect(kept.id == "docs")
        guard case .rejected(let reason) = kept.reason else {
            Issue.record("kept for another reason: \(kept.reason)")
            return
        }
        #expect(reason.contains("fileTrigger.paths") && reason.contains(watched.path), "\(reason)")
        #expect(second.files.watchedPaths.isEmpty)
        #expect(try second.store.load().jobs.map(\.id) == ["docs"])
        try await second.stop()
    }
}
