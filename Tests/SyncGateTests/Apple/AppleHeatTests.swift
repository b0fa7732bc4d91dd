import SyncGateTesting
import Testing

@testable import SyncGateCore

/// Heat on Apple platforms: `ProcessInfo.thermalState` through the power seam, followed on its change
/// notification.
@Suite("Apple heat", .timeLimit(.minutes(1)))
struct AppleHeatTests {
    @Test(
        "serious and critical are hot; nominal and fair are not",
        arguments: [
            (ThermalStateMirror.nominal, false), (.fair, false), (.serious, true), (.critical, true),
        ])
    func rule(state: ThermalStateMirror, hot: Bool) {
        #expect(state.isHot == hot)
        let facts = ApplePowerFacts(isLowPowerModeEnabled: false, battery: .none, thermalState: state)
        #expect(facts.resourceStatus == ResourceStatus(isHot: hot))
        #expect(SyncEnvironmentStatus(resources: facts.resourceStatus).satisfies(.notHot) == !hot)
    }

    @Test("the table covers every thermal state")
    func everyState() {
        #expect(ThermalStateMirror.allCases.count == 4)
    }

    @Test("the follower publishes each change of the thermal state, and pressure never blocks")
    func follows() {
        let reader = FakePowerReader(ApplePowerFacts(isLowPowerModeEnabled: false, battery: .none))
        let follower = AppleResourceFollower(reader: reader)
        #expect(reader.monitoring.withLock { $0 })
        #expect(!follower.broadcast.value.isHot)
        reader.change(to: ApplePowerFacts(isLowPowerModeEnabled: false, battery: .none, thermalState: .serious))
        #expect(follower.broadcast.value.isHot)
        #expect(!follower.broadcast.value.isUnderPressure)
        reader.change(to: ApplePowerFacts(isLowPowerModeEnabled: false, battery: .none, thermalState: .fair))
        #expect(!follower.broadcast.value.isHot)
        #expect(follower.provenance.heat == .processInfo)
        #expect(follower.provenance.pressure == .unavailable)
        follower.stop()
        follower.stop()
        #expect(!reader.monitoring.withLock { $0 })
        #expect(reader.stops.withLock { $0 } == 1)
    }

    @Test("a job that must not run hot waits for the device to cool")
    func gatesAJob() async throws {
        let reader = FakePowerReader(
            ApplePowerFacts(isLowPowerModeEnabled: false, battery: .none, thermalState: .critical))
        let resources = StatusObserver(backend: AppleResourceFollower(reader: reader))
        let clock = ManualClock()
        let environment = SyncEnvironment(resources: resources, clock: clock)
        let scheduler = SyncScheduler(environment: environment, clock: clock)
        let handle = try scheduler.submit(SyncJob(requires: .notHot) { _ in })
        #expect(handle.state == .waiting(unmet: .notHot, conditions: []))
        reader.change(to: ApplePowerFacts(isLowPowerModeEnabled: false, battery: .none, thermalState: .nominal))
        #expect(try await handle.outcome() == .succeeded)
    }
}
