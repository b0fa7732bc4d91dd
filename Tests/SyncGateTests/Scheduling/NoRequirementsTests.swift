import SyncGate
import SyncGateTesting
import Testing

/// `SyncRequirements.none`, and the default every job has without it: the network.
@Suite("No requirements and the default one", .timeLimit(.minutes(1)))
struct NoRequirementsTests {
    @Test("`.none` is the empty set the table spells `none`")
    func noneIsTheEmptySet() {
        #expect(SyncRequirements.none.isEmpty)
        #expect(SyncRequirements.none == [])
        #expect(SyncRequirements.none.description == "[]")
        #expect(SyncRequirements(name: "none") == SyncRequirements.none)
        let nothing = SyncRequirements.named.filter { $0.kind == .nothing }
        #expect(nothing.map(\.name) == ["none"])
        #expect(nothing.map(\.requirement) == [SyncRequirements.none])
    }

    @Test("a job that requires `.none` runs offline, while a job given only a condition waits for the network")
    func noneRunsOfflineAndTheDefaultIsTheNetwork() async throws {
        let manual = ManualSyncEnvironment(connectivity: .disconnected, clock: ManualClock())
        let scheduler = SyncScheduler(environment: manual.environment, clock: ManualClock())
        try manual.setCondition("db-migrated", isMet: true)

        let local = try scheduler.submit(SyncJob(id: "local", requires: .none, conditions: ["db-migrated"]) { _ in })
        let byDefault = try scheduler.submit(SyncJob(id: "by-default", conditions: ["db-migrated"]) { _ in })

        #expect(try await local.outcome() == .succeeded)
        #expect(byDefault.requirements == .network)
        #expect(scheduler.snapshot().job("by-default")?.unmetRequirements == .network)
        #expect(byDefault.finalOutcome == nil)

        manual.setConnectivity(.connected(via: .wifi))
        #expect(try await byDefault.outcome() == .succeeded)
    }

    @Test("durable jobs default to the network too, and take `.none`")
    func durableDefaults() {
        let byDefault = DurableJob(kind: "k", payload: 1)
        let local = DurableJob(kind: "k", payload: 1, requires: .none)
        #expect(byDefault.options.requirements == .network)
        #expect(local.options.requirements.isEmpty)
    }
}
