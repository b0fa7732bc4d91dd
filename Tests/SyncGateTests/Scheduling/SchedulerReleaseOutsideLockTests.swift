import SyncGateTesting
import Testing

@testable import SyncGateCore

/// What a job holds (its operation's captures, its attachment) is released outside the scheduler's lock,
/// so a deinitializer that calls the scheduler (a captured object that cancels a job, or the last
/// reference to the scheduler itself, whose deinitializer cancels every job) cannot deadlock on it.
@Suite("Scheduler releases outside its lock", .timeLimit(.minutes(2)))
struct SchedulerReleaseOutsideLockTests {
    /// Records, when it goes away, whether its thread was inside a scheduler's critical section, and
    /// then says it went away on `released`.
    final class Probe: Sendable {
        let log: LockedState<[Bool]>
        let released: AsyncStream<Void>.Continuation

        init(log: LockedState<[Bool]>, released: AsyncStream<Void>.Continuation) {
            self.log = log
            self.released = released
        }

        deinit {
            let held = SchedulerLockProbe.isHeld
            log.withLock { $0.append(held) }
            released.yield()
        }
    }

    struct Failure: Error {}

    /// How the job that holds the probe leaves the scheduler (or lets go of it).
    enum Ending: String, CaseIterable, Sendable, CustomTestStringConvertible {
        /// Cancelled while waiting, with no history kept.
        case cancelledWhileWaiting
        /// Finished, kept in the history, and later dropped from it.
        case droppedFromHistory
        /// Cancelled because its scheduler went away, with no history kept.
        case schedulerReleased
        /// Its first attempt set an output and failed; the retry's start forgets that output.
        case outputForgottenByRetry

        var testDescription: String { rawValue }
    }

    @Test("a job's captures are released outside the scheduler's lock", arguments: Ending.allCases)
    func releasedOutsideTheLock(_ ending: Ending) async throws {
        // A job's end is reported before what it held is released (the release is deferred until the
        // lock is let go, on whichever thread held it), so the test waits for the release itself.
        let (released, probes) = AsyncStream<Void>.makeStream()
        let log = LockedState<[Bool]>([])
        let manual = ManualSyncEnvironment(connectivity: .connected(via: .wifi))
        switch ending {
        case .cancelledWhileWaiting:
            let scheduler = try SyncScheduler(environment: manual.environment, configuration: .init(history: .none))
            let handle = try Self.submitWaiting(to: scheduler, holding: Probe(log: log, released: probes))
            handle.cancel()
            #expect(try await handle.outcome().state == .cancelled)
        case .droppedFromHistory:
            let scheduler = try SyncScheduler(
                environment: manual.environment, configuration: .init(history: .init(maxCount: 1)))
            for index in 0..<100 {
                let probe = Probe(log: log, released: probes)
                let handle = try Self.submitRunnable(to: scheduler, id: "job-\(index)", holding: probe)
                #expect(try await handle.outcome().state == .succeeded)
            }
        case .schedulerReleased:
            var scheduler: SyncScheduler? = try SyncScheduler(
                environment: manual.environment, configuration: .init(history: .none))
            let handle = try Self.submitWaiting(to: try #require(scheduler), holding: Probe(log: log, released: probes))
            scheduler = nil
            #expect(try await handle.outcome().state == .cancelled)
        case .outputForgottenByRetry:
            let clock = ManualClock()
            let timed = ManualSyncEnvironment(connectivity: .connected(via: .wifi), clock: clock)
            let scheduler = SyncScheduler(environment: timed.environment, clock: clock)
            let handle = try scheduler.submit(
                SyncJob(id: "retries", requires: [], retry: .fixed(delay: .seconds(1), maxAttempts: 2)) { context in
                    guard context.attempt == 1 else { return }
                    context.setOutput(Probe(log: log, released: probes))
                    throw Failure()
                })
            await clock.waitForSleepers(1)
            clock.advance(by: .seconds(1))
            #expect(try await handle.outcome().state == .succeeded)
        }
        var iterator = released.makeAsyncIterator()
        #expect(await iterator.next() != nil)
        let releases = log.withLock { $0 }
        #expect(!releases.isEmpty)
        #expect(!releases.contains(true), "\(releases.count { $0 }) of \(releases.count) released under the lock")
    }

    private static func submitWaiting(to scheduler: SyncScheduler, holding probe: Probe) throws -> SyncJobHandle {
        try scheduler.submit(SyncJob(id: "waits", requires: [], conditions: ["never-held"]) { _ in _ = probe })
    }

    private static func submitRunnable(to scheduler: SyncScheduler, id: String, holding probe: Probe) throws
        -> SyncJobHandle
    {
        try scheduler.submit(SyncJob(id: id, requires: []) { _ in _ = probe })
    }
}
