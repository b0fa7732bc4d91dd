import SyncGate
import SyncGateTesting
import Testing

/// `.storageNotLow`'s source reads the volume only while a job or a waiter needs it, on the injected
/// clock's timer, and never otherwise.
@Suite("StorageObserver", .timeLimit(.minutes(1)))
struct StorageObserverTests {
    /// A directory that exists everywhere the tests run.
    static let path = "/"

    @Test("nothing reads or arms a timer while nobody needs the requirement")
    func idleWithoutDemand() async throws {
        let clock = ManualClock()
        let storage = StorageObserver(path: Self.path, checkInterval: .seconds(30), clock: clock)
        #expect(storage.readCount == 1)  // the first value, read at init
        #expect(storage.status.availableBytes != nil)
        #expect(storage.provenance.freeSpace == .statvfs)
        let environment = SyncEnvironment(storage: storage, clock: clock)
        let scheduler = SyncScheduler(environment: environment, clock: clock)
        // Jobs and waiters that do not need free space create no demand.
        let handle = try scheduler.submit(SyncJob(requires: .network) { _ in })
        _ = try await handle.outcome()
        _ = await environment.waitUntilSyncReady(timeout: .zero)
        #expect(!storage.isCheckTimerArmed)
        #expect(clock.sleeperCount == 0)
        clock.advance(by: .seconds(3600))
        #expect(storage.readCount == 1)
    }

    @Test("a job that needs it makes the observer read at once, then on every tick, until it resolves")
    func readsWhileAJobNeedsIt() async throws {
        let clock = ManualClock()
        let storage = StorageObserver(path: Self.path, thresholdBytes: 0, checkInterval: .seconds(30), clock: clock)
        let environment = SyncEnvironment(storage: storage, clock: clock)
        let scheduler = SyncScheduler(environment: environment, clock: clock)
        let operation = ControlledOperation()
        let handle = try scheduler.submit(SyncJob(requires: .storageNotLow, operation: operation.operation))
        #expect(storage.readCount == 2, "read before the job was judged")
        #expect(storage.isCheckTimerArmed)
        #expect(environment.demand.isNeeded(.storageNotLow))
        for tick in 1...3 {
            await clock.waitForSleepers(1)
            clock.advance(by: .seconds(30))
            // The loop reads, then sleeps again: once it sleeps, the read is done.
            await clock.waitForSleepers(1)
            #expect(storage.readCount == 2 + tick)
        }
        operation.finish()
        #expect(try await handle.outcome() == .succeeded)
        #expect(!storage.isCheckTimerArmed)
        #expect(!environment.demand.isNeeded(.storageNotLow))
        let reads = storage.readCount
        clock.advance(by: .seconds(300))
        #expect(storage.readCount == reads)
    }

    @Test("a job waits while storage is low, and a cancelled one ends the demand")
    func lowStorageBlocksAndCancelEndsDemand() async throws {
        let clock = ManualClock()
        // No volume has this much free space: storage reads as low.
        let storage = StorageObserver(
            path: Self.path, thresholdBytes: .max, checkInterval: .seconds(10), clock: clock)
        let environment = SyncEnvironment(storage: storage, clock: clock)
        let scheduler = SyncScheduler(environment: environment, clock: clock)
        let handle = try scheduler.submit(SyncJob(requires: [.storageNotLow]) { _ in })
        #expect(handle.state == .waiting(unmet: .storageNotLow, conditions: []))
        #expect(environment.status.storage.isLow)
        #expect(storage.isCheckTimerArmed)
        handle.cancel()
        #expect(try await handle.outcome() == .cancelled)
        #expect(!storage.isCheckTimerArmed)
    }

    @Test("a waiter needs it for as long as it waits")
    func waiterDemand() async throws {
        let clock = ManualClock()
        let storage = StorageObserver(
            path: Self.path, thresholdBytes: .max, checkInterval: .seconds(10), clock: clock)
        let environment = SyncEnvironment(storage: storage, clock: clock)
        let wait = Task { try await environment.waitUntil(.storageNotLow, timeout: .seconds(25)) }
        // The wait's timeout and the check timer.
        await clock.waitForSleepers(2)
        #expect(storage.isCheckTimerArmed)
        // One tick: the check timer reads, then sleeps again (awaited, not assumed).
        clock.advance(by: .seconds(10))
        await clock.waitForSleepers(2)
        #expect(storage.readCount >= 3)  // at init, when the wait began, and on the tick
        clock.advance(by: .seconds(15))
        await #expect(throws: SyncEnvironmentError.timedOut) { try await wait.value }
        #expect(!storage.isCheckTimerArmed)
    }

    @Test("without a path, the job store's directory is watched once a durable scheduler uses it")
    func defaultPathIsTheJobStore() throws {
        let directory = TemporaryDirectory()
        let storage = StorageObserver()
        #expect(storage.path != directory.path)  // the working directory until then
        let scheduler = SyncScheduler(environment: SyncEnvironment(storage: storage))
        let durable = DurableScheduler(scheduler: scheduler, store: try FileJobStore(directory: directory.path))
        #expect(storage.path == directory.path)
        #expect(storage.status.path == directory.path)
        // A path the app gave is kept.
        let chosen = StorageObserver(path: "/")
        let other = SyncScheduler(environment: SyncEnvironment(storage: chosen))
        let second = TemporaryDirectory()
        let kept = DurableScheduler(scheduler: other, store: try FileJobStore(directory: second.path))
        #expect(chosen.path == "/")
        withExtendedLifetime((durable, kept)) {}
    }

    @Test("a path that cannot be read is unknown, not low, with a note")
    func unreadablePath() {
        let storage = StorageObserver(path: "/nonexistent/syncgate-storage-test")
        #expect(storage.status.availableBytes == nil)
        #expect(!storage.status.isLow)
        #expect(storage.provenance.notes.contains { $0.contains("statvfs(/nonexistent/syncgate-storage-test) failed") })
    }

    @Test(
        "the default threshold is the smaller of 5 % and 500 MiB",
        arguments: [
            (UInt64(1) << 30, UInt64(53_687_091)), (UInt64(10) << 30, UInt64(500) << 20), (UInt64(0), UInt64(0)),
        ])
    func defaultThreshold(capacity: UInt64, threshold: UInt64) {
        #expect(StorageStatus.defaultThreshold(capacityBytes: capacity) == threshold)
        #expect(StorageStatus(availableBytes: 0, capacityBytes: capacity).thresholdBytes == threshold)
    }
}
