import Foundation
import SyncGateCore

/// Runs an app's durable jobs when the system launches it in the background (iOS `BGTaskScheduler`),
/// and asks for the next launch from what is left.
///
/// The app registers its kinds in a function that builds the durable scheduler (environment,
/// scheduler, store, handlers); the bridge calls it at each launch. In the task's handler the bridge
/// restores the durable jobs and lets them run until none is runnable (every job left waits for a
/// requirement, a delay or a backoff) or the system's expiration handler fires; then it shuts the
/// scheduler down gracefully (the jobs stay in the store), submits the next request built from the jobs
/// left (``BackgroundTaskRequest/covering(_:identifier:now:)``), or cancels it when none is left, and
/// completes the task. On Apple platforms `register()` and ``scheduleNext(durable:)`` are the
/// entry points; see the README.
public final class BackgroundSyncBridge: Sendable {
    /// The task identifier.
    public let taskIdentifier: String
    /// How long running jobs get to finish once the bridge stops, before they are cancelled.
    public let gracePeriod: Duration
    let makeDurable: @Sendable () throws -> DurableScheduler
    private let taskScheduler: any BackgroundTaskScheduling
    private let wallClock: @Sendable () -> Date

    /// Creates a bridge on a task-scheduler seam.
    package init(
        taskIdentifier: String, taskScheduler: any BackgroundTaskScheduling, gracePeriod: Duration = .seconds(2),
        wallClock: @escaping @Sendable () -> Date = { Date() },
        makeDurable: @escaping @Sendable () throws -> DurableScheduler
    ) {
        self.taskIdentifier = taskIdentifier
        self.taskScheduler = taskScheduler
        self.gracePeriod = gracePeriod
        self.wallClock = wallClock
        self.makeDurable = makeDurable
    }

    /// The request that covers the jobs `durable` has not finished, or `nil` when none is left.
    public func nextRequest(durable: DurableScheduler) throws -> BackgroundTaskRequest? {
        let kept = Set(durable.snapshot().kept.map(\.id))
        let jobs = try durable.store.load().jobs.filter { !kept.contains($0.id) }
        return BackgroundTaskRequest.covering(jobs, identifier: taskIdentifier, now: wallClock())
    }

    /// Submits the request that covers the jobs `durable` has not finished, or cancels the pending one
    /// when none is left; call it when the app moves to the background. Returns the request submitted.
    @discardableResult
    public func scheduleNext(durable: DurableScheduler) throws -> BackgroundTaskRequest? {
        guard let request = try nextRequest(durable: durable) else {
            taskScheduler.cancel(identifier: taskIdentifier)
            return nil
        }
        try taskScheduler.submit(request)
        return request
    }

    /// Handles one launched task: restore, run until nothing is runnable or the task expires, shut down,
    /// schedule the next request, complete. Returns whether the task completed successfully (it did not
    /// expire, and building, restoring and scheduling worked).
    @discardableResult
    package func run(_ task: any BackgroundTaskRunning) async -> Bool {
        let (signals, signal) = AsyncStream.makeStream(of: Bool.self)  // true: expired; false: an event
        task.setExpirationHandler { signal.yield(true) }
        let durable: DurableScheduler
        do {
            durable = try makeDurable()
        } catch {
            SyncGateLog.log(.error, "background task \(taskIdentifier): could not build the scheduler: \(error)")
            task.setTaskCompleted(success: false)
            return false
        }
        let scheduler = durable.scheduler
        let events = scheduler.events  // subscribed before the restore, so no event is missed
        let forward = Task {
            for await _ in events { signal.yield(false) }
        }
        var success = true
        do {
            try durable.restoreJobs()
        } catch {
            SyncGateLog.log(.error, "background task \(taskIdentifier): restore failed: \(error)")
            success = false
        }
        if success && !Self.isIdle(scheduler.snapshot()) {
            for await expired in signals {
                if expired {
                    SyncGateLog.log(.warning, "background task \(taskIdentifier) expired; stopping the jobs")
                    success = false
                    break
                }
                if Self.isIdle(scheduler.snapshot()) { break }
            }
        }
        await scheduler.shutdown(gracePeriod: gracePeriod)
        forward.cancel()
        signal.finish()
        do {
            try scheduleNext(durable: durable)
        } catch {
            SyncGateLog.log(.error, "background task \(taskIdentifier): could not schedule the next one: \(error)")
            success = false
        }
        task.setTaskCompleted(success: success)
        return success
    }

    /// Whether nothing runs and nothing can start now: every job left waits for a requirement, a
    /// condition, an allowed network, a delay or a backoff.
    static func isIdle(_ snapshot: SyncSchedulerSnapshot) -> Bool {
        snapshot.jobs.allSatisfy { job in
            switch job.state {
            case .running: false
            case .waiting(let unmet, let conditions): !(unmet.isEmpty && conditions.isEmpty) || job.isNetworkNotAllowed
            case .blocked, .delayed, .succeeded, .failed, .cancelled, .expired: true
            }
        }
    }
}
