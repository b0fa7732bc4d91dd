import SyncGate
import SyncGateTesting
import Testing

/// The recipe's scheduler check for the requirements added with their own sources: a job that needs
/// one waits while it is unmet, and starts the moment it holds.
@Suite("Requirement gating", .timeLimit(.minutes(1)))
struct RequirementGatingTests {
    /// A requirement, a change that breaks it and a change that restores it.
    struct Row: Sendable, CustomTestStringConvertible {
        var requirement: SyncRequirements
        var unmet: @Sendable (ManualSyncEnvironment) -> Void
        var met: @Sendable (ManualSyncEnvironment) -> Void
        var testDescription: String { requirement.description }
    }

    static let rows: [Row] = [
        Row(
            requirement: .storageNotLow,
            unmet: { $0.setStorage(StorageStatus(path: "/data", availableBytes: 1 << 20, capacityBytes: 1 << 30)) },
            met: { $0.setStorage(StorageStatus(path: "/data", availableBytes: 1 << 29, capacityBytes: 1 << 30)) }),
        Row(
            requirement: .deviceIdle,
            unmet: { $0.setPower(PowerStatus(isDeviceIdle: false)) },
            met: { $0.setPower(PowerStatus(isDeviceIdle: true)) }),
        Row(
            requirement: .notRoaming,
            unmet: { $0.setConnectivity(.connected(via: .cellular, isExpensive: true, isRoaming: true)) },
            met: { $0.setConnectivity(.connected(via: .cellular, isExpensive: true)) }),
        Row(
            requirement: .unmeteredConfirmed,
            unmet: { $0.setConnectivity(.connected(via: .wifi, metered: .guessedUnmetered)) },
            met: { $0.setConnectivity(.connected(via: .wifi, metered: .confirmedUnmetered)) }),
        Row(
            requirement: .notUnderPressure,
            unmet: { $0.setResources(ResourceStatus(isUnderPressure: true, pressure: PressureLevels(cpu: 80))) },
            met: { $0.setResources(ResourceStatus(pressure: PressureLevels(cpu: 5))) }),
        Row(
            requirement: .notHot,
            unmet: {
                $0.setResources(
                    ResourceStatus(
                        isHot: true, thermal: ThermalReading(zone: "acpitz", celsius: 96, passiveCelsius: 95)))
            },
            met: {
                $0.setResources(
                    ResourceStatus(thermal: ThermalReading(zone: "acpitz", celsius: 60, passiveCelsius: 95)))
            }),
    ]

    @Test("a job waits while its requirement is unmet and starts when it holds", arguments: rows)
    func waitsThenStarts(row: Row) async throws {
        let clock = ManualClock()
        let manual = ManualSyncEnvironment(connectivity: .connected(via: .wifi), clock: clock)
        row.unmet(manual)
        let scheduler = SyncScheduler(environment: manual.environment, clock: clock)
        let handle = try scheduler.submit(SyncJob(requires: row.requirement) { _ in })
        #expect(handle.state == .waiting(unmet: row.requirement, conditions: []))
        row.met(manual)
        #expect(try await handle.outcome() == .succeeded)
    }

    @Test("a guessed 'not metered' starts an unmetered job; the strict one waits for a confirmed one")
    func guessCountsOnlyForUnmetered() async throws {
        let clock = ManualClock()
        let manual = ManualSyncEnvironment(
            connectivity: .connected(via: .wifi, metered: .guessedUnmetered), clock: clock)
        let scheduler = SyncScheduler(environment: manual.environment, clock: clock)
        let strict = try scheduler.submit(SyncJob(id: "strict", requires: [.network, .unmeteredConfirmed]) { _ in })
        let relaxed = try scheduler.submit(SyncJob(id: "relaxed", requires: [.network, .unmetered]) { _ in })
        #expect(try await relaxed.outcome() == .succeeded)
        #expect(strict.state == .waiting(unmet: .unmeteredConfirmed, conditions: []))
        manual.setConnectivity(.connected(via: .wifi, metered: .unknown))
        #expect(strict.state == .waiting(unmet: .unmeteredConfirmed, conditions: []))
        manual.setConnectivity(.connected(via: .wifi, metered: .confirmedUnmetered))
        #expect(try await strict.outcome() == .succeeded)
    }
}
