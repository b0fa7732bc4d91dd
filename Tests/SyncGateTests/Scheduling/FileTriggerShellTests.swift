import Foundation
import SyncGate
import SyncGateTesting
import Testing

/// File-triggered jobs through `SyncScheduler`: the `ManualFileWatcher` seam reports changes, the
/// `ManualClock` runs the quiet period, and the watch lives exactly as long as the job.
@Suite("File-triggered jobs in the scheduler", .timeLimit(.minutes(1)))
struct FileTriggerShellTests {
    static func make() -> (ManualClock, ManualFileWatcher, ManualSyncEnvironment, SyncScheduler) {
        let clock = ManualClock()
        let files = ManualFileWatcher()
        let manual = ManualSyncEnvironment(account: .available, clock: clock)
        manual.setConnectivity(.connected(via: .wifi))
        let scheduler = SyncScheduler(environment: manual.environment, clock: clock, fileWatcher: files)
        return (clock, files, manual, scheduler)
    }

    static func submit(_ scheduler: SyncScheduler) throws -> (SyncJobHandle, AsyncStream<Void>) {
        var options = SyncJobOptions(requires: .network)
        options.fileTrigger = SyncFileTrigger(paths: ["/data/docs"], quietPeriod: .seconds(5))
        let ran = AsyncStream.makeStream(of: Void.self)
        let handle = try scheduler.submit(SyncJob(id: "docs", options: options) { _ in ran.continuation.yield() })
        return (handle, ran.stream)
    }

    @Test("a change runs the job after the quiet period; info and snapshot show the waits")
    func runsAfterQuiet() async throws {
        let (clock, files, _, scheduler) = Self.make()
        let (handle, ran) = try Self.submit(scheduler)
        #expect(files.watchedPaths == [["/data/docs"]])
        #expect(handle.state == .delayed(attempt: 1))
        #expect(scheduler.job(id: "docs")?.fileWait == .change)
        #expect(scheduler.snapshot().job("docs")?.summary.contains("waiting for a change") == true)
        #expect(clock.sleeperCount == 0)
        #expect(files.change("/data/docs") == 1)
        #expect(scheduler.job(id: "docs")?.fileWait == .quiet(until: .seconds(5)))
        #expect(scheduler.job(id: "docs")?.description.contains("waiting for quiet") == true)
        await clock.waitForSleeper(until: .init(offset: .seconds(5)))
        clock.advance(by: .seconds(5))
        var runs = ran.makeAsyncIterator()
        _ = await runs.next()
        for await state in handle.states where state == .delayed(attempt: 1) { break }
        #expect(scheduler.job(id: "docs")?.periods == .init(succeeded: 1, failed: 0, skipped: 0))
        #expect(scheduler.job(id: "docs")?.fileWait == .change)
        handle.cancel()
        #expect(try await handle.outcome() == .cancelled)
        // The watch ended with the job.
        #expect(files.watchedPaths.isEmpty)
    }

    @Test("a watch that cannot start refuses the submission, naming the field, the path and the limit")
    func refusedWatch() throws {
        let (_, files, _, scheduler) = Self.make()
        files.fail("/data/docs", with: .watchLimitReached(limit: "/proc/sys/fs/inotify/max_user_watches"))
        let error = #expect(throws: SyncSchedulerError.self) { try Self.submit(scheduler) }
        guard case .invalidJob(let refusal)? = error else { return }
        #expect(refusal.field == "fileTrigger.paths")
        #expect(refusal.value == "/data/docs")
        #expect(refusal.reason.contains("/proc/sys/fs/inotify/max_user_watches"))
        #expect(scheduler.snapshot().jobs.isEmpty)
        #expect(files.watchedPaths.isEmpty)
    }

    @Test("a job refused by the machine (its id taken) leaves no watch behind")
    func rejectedJobLeavesNoWatch() throws {
        let (_, files, _, scheduler) = Self.make()
        let (handle, _) = try Self.submit(scheduler)
        #expect(throws: SyncSchedulerError.self) { try Self.submit(scheduler) }
        #expect(files.watchedPaths.count == 1)
        handle.cancel()
    }
}
