import SyncGate
import SyncGateTesting
import Testing

/// Every public entry point that takes values, walked with invalid ones: the error names the field and
/// the value, and nothing that was queued changes (docs/ARCHITECTURE.md §4, "bad input"). The scheduler's
/// job fields have their own table in `SyncSchedulerTests.badInput`.
@Suite("Bad input across the public API", .timeLimit(.minutes(1)))
struct BadInputTests {
    @Test("waitUntil rejects a condition with an empty name, naming it, and leaves no waiter")
    func waitUntilArguments() async {
        let clock = ManualClock()
        let manual = ManualSyncEnvironment(clock: clock)
        let parked = Task { try await manual.environment.waitUntil(.network, timeout: .seconds(60)) }
        await clock.waitForSleepers(1)
        await #expect(
            throws: SyncEnvironmentError.invalidArgument(
                parameter: "conditions", message: "a condition's name is empty")
        ) {
            try await manual.environment.waitUntil(.network, conditions: [""], timeout: .seconds(1))
        }
        #expect(manual.environment.waiterCount == 1)
        manual.setConnectivity(.connected(via: .wifi))
        let status = try? await parked.value
        #expect(status?.connectivity.isConnected == true)
        #expect(manual.environment.waiterCount == 0)
    }

    @Test("setCondition refuses an empty name with a thrown error, as waitUntil and submit do, and changes nothing")
    func setConditionEmptyName() throws {
        let manual = ManualSyncEnvironment()
        try manual.environment.setCondition("db-migrated", isMet: true)
        let error = SyncEnvironmentError.invalidArgument(parameter: "condition", message: "the name is empty (\"\")")
        #expect(throws: error) { try manual.environment.setCondition("", isMet: true) }
        #expect(throws: error) { try manual.environment.setCondition(SyncCondition(""), isMet: false) }
        #expect(throws: error) { try manual.setCondition("", isMet: true) }
        #expect(manual.status.conditions == ["db-migrated"])
    }

    @Test(
        "the scheduler rejects invalid configurations, naming the field and value",
        arguments: [0, -1, Int.min]
    )
    func configuration(slots: Int) {
        let manual = ManualSyncEnvironment()
        #expect(throws: SyncSchedulerError.invalidConfiguration("maxConcurrentJobs must be at least 1, got \(slots)")) {
            _ = try SyncScheduler(environment: manual.environment, configuration: .init(maxConcurrentJobs: slots))
        }
        #expect(throws: SyncSchedulerError.invalidConfiguration("maxConcurrentJobs must be at least 1, got \(slots)")) {
            try SyncScheduler.Configuration(maxConcurrentJobs: slots).validate()
        }
    }

    @Test("after shutdown, submit throws shutDown and run throws it too")
    func afterShutdown() async {
        let manual = ManualSyncEnvironment()
        let scheduler = SyncScheduler(environment: manual.environment)
        await scheduler.shutdown(gracePeriod: .zero)
        #expect(throws: SyncSchedulerError.shutDown) { try scheduler.submit(SyncJob { _ in }) }
        await #expect(throws: SyncSchedulerError.shutDown) { try await scheduler.run(requiring: []) { _ in 1 } }
    }

    @Test("unknown requirement spellings are refused", arguments: ["", "wifi", "network,", "low-power"])
    func requirementSpellings(name: String) {
        #expect(SyncRequirements(name: name) == nil)
    }
}
