import Foundation
import SyncGate
import SyncGateTesting
import Testing

/// Durable jobs with relaxations across "restarts" (a store closed and a new scheduler and store opened on
/// its directory): the wait counts from the submission's wall-clock instant, so the time before the
/// restart and while nothing ran counts. ManualClock and a manual wall clock moved together.
@Suite("Durable relaxations", .timeLimit(.minutes(1)))
struct DurableRelaxationTests {
    let directory = TemporaryDirectory()
    let clock = ManualClock()
    let wall = ManualWallClock()
    static let hotspot = ConnectivityStatus.connected(via: .wifi, isExpensive: true)
    static let relaxation = SyncJobRelaxation.drop(.unmetered, after: .seconds(100))

    /// One process lifetime.
    struct Run {
        let scheduler: SyncScheduler
        let durable: DurableScheduler
        let store: FileJobStore
        let operation = ControlledOperation()
        let applied = LockedState<[SyncRequirements]>([])

        /// Ends the process: the scheduler shuts down, then the store closes.
        func stop() async throws {
            await scheduler.shutdown(gracePeriod: .zero)
            try store.close()
        }
    }

    func start() throws -> (Run, DurableRestoreReport) {
        let manual = ManualSyncEnvironment(connectivity: Self.hotspot, clock: clock)
        let scheduler = SyncScheduler(environment: manual.environment, clock: clock)
        let store = try FileJobStore(directory: directory.path)
        let durable = DurableScheduler(scheduler: scheduler, store: store, wallClock: wall.function)
        let run = Run(scheduler: scheduler, durable: durable, store: store)
        try durable.register("backup", payload: [String: Int].self) { _, context in
            run.applied.withLock { $0.append(context.appliedRequirements) }
            try await run.operation.operation(context)
        }
        return (run, try durable.restoreJobs())
    }

    /// Moves the monotonic clock and the wall clock together, as they move in a running process.
    func advance(by seconds: Int) {
        wall.advance(by: Double(seconds))
        clock.advance(by: .seconds(seconds))
    }

    /// Submits the backup (on a hotspot it waits for `unmetered`) and lets it wait 60 s of its 100 s.
    func submitAndWait(_ run: Run) async throws {
        var job = DurableJob(
            id: "backup", kind: "backup", payload: [String: Int](), requires: [.network, .unmetered])
        job.relaxations = [Self.relaxation]
        _ = try run.durable.submit(job)
        await clock.waitForSleepers(1)
        advance(by: 60)
        #expect(run.operation.starts.value == 0)
        #expect(try run.store.load().jobs.first?.options.relaxations == [Self.relaxation])
    }

    @Test("the wait goes on across a restart: the time before it and while down counts")
    func waitContinuesAcrossRestart() async throws {
        let (first, _) = try start()
        try await submitAndWait(first)
        try await first.stop()

        wall.advance(by: 10)  // down for 10 s: 70 s of the 100 s have passed
        let (second, report) = try start()
        let handle = try #require(report.restored.first)
        #expect(handle.relaxations.map(\.remaining) == [.seconds(30)])
        #expect(handle.description == "backup: waiting for [unmetered] (relaxes: unmetered dropped in 30s)")
        await clock.waitForSleepers(1)
        advance(by: 29)
        #expect(second.operation.starts.value == 0)
        advance(by: 1)
        await second.operation.waitForStarts(1)
        second.operation.finish()
        #expect(try await handle.outcome() == .succeeded)
        #expect(second.applied.withLock { $0 } == [.network])
        #expect(second.operation.starts.value == 1)
        try await second.stop()
    }

    @Test("a job whose relax instant passed while down relaxes at restore and starts at once")
    func instantPassedWhileDown() async throws {
        let (first, _) = try start()
        try await submitAndWait(first)
        try await first.stop()

        wall.advance(by: 200)
        let (second, report) = try start()
        let handle = try #require(report.restored.first)
        await second.operation.waitForStarts(1)
        #expect(second.applied.withLock { $0 } == [.network])
        second.operation.finish()
        #expect(try await handle.outcome() == .succeeded)
        try await second.stop()
    }
}
