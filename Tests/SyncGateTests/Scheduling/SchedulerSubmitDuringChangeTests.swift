import SyncGateTesting
import Testing

@testable import SyncGateCore

/// A job submitted while the environment's observers are still being told of a change is judged on the
/// status now, not on the last status the scheduler heard.
@Suite("Scheduler: submit during a status change", .timeLimit(.minutes(1)))
struct SchedulerSubmitDuringChangeTests {
    /// Whether the job ran; set by its body.
    final class Ran: Sendable {
        let flag = LockedState(false)
    }

    /// An observer registered before the scheduler's runs first: when it submits, the environment already
    /// says "disconnected" and the scheduler has not heard it yet. The job must wait, not start on the
    /// stale "connected".
    @Test func jobSubmittedBeforeTheSchedulerHearsALossWaits() async throws {
        let manual = ManualSyncEnvironment(connectivity: .connected(via: .wifi))
        let environment = manual.environment
        let submitted = LockedState<(scheduler: SyncScheduler?, handle: SyncJobHandle?)>((nil, nil))
        let ran = Ran()
        let token = environment.statusBroadcast.addObserver { status in
            guard !status.connectivity.isConnected else { return }
            submitted.withLock { slot in
                guard let scheduler = slot.scheduler, slot.handle == nil else { return }
                slot.handle = try? scheduler.submit(
                    SyncJob(id: "needs-network", requires: .network) { _ in
                        ran.flag.withLock { $0 = true }
                    })
            }
        }
        defer { environment.statusBroadcast.removeObserver(token) }
        let scheduler = SyncScheduler(environment: environment)
        submitted.withLock { $0.scheduler = scheduler }

        manual.connectivity.send(.disconnected)
        let handle = try #require(submitted.withLock { $0.handle })
        #expect(handle.state == .waiting(unmet: .network, conditions: []))
        #expect(!ran.flag.withLock { $0 })

        // It starts when the network comes back, exactly once.
        manual.connectivity.send(.connected(via: .wifi))
        #expect(try await handle.outcome() == .succeeded)
        #expect(ran.flag.withLock { $0 })
    }

    /// The other way round: submitted before the scheduler hears that the network came back, the job
    /// starts on the status now (it does not wait for the scheduler to catch up).
    @Test func jobSubmittedBeforeTheSchedulerHearsAGainStarts() async throws {
        let manual = ManualSyncEnvironment(connectivity: .disconnected)
        let environment = manual.environment
        let submitted = LockedState<(scheduler: SyncScheduler?, handle: SyncJobHandle?)>((nil, nil))
        let token = environment.statusBroadcast.addObserver { status in
            guard status.connectivity.isConnected else { return }
            submitted.withLock { slot in
                guard let scheduler = slot.scheduler, slot.handle == nil else { return }
                slot.handle = try? scheduler.submit(SyncJob(id: "needs-network", requires: .network) { _ in })
                if case .waiting = slot.handle?.state {
                    Issue.record("the job waits on the status the scheduler last heard")
                }
            }
        }
        defer { environment.statusBroadcast.removeObserver(token) }
        let scheduler = SyncScheduler(environment: environment)
        submitted.withLock { $0.scheduler = scheduler }

        manual.connectivity.send(.connected(via: .wifi))
        let handle = try #require(submitted.withLock { $0.handle })
        #expect(try await handle.outcome() == .succeeded)
    }
}
