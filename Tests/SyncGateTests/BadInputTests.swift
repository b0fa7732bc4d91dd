import SyncGate
import SyncGateCLI
import SyncGateTesting
import Testing

private let expectedUnit = "expected a number and a unit (ms, s, m or h), such as 500ms, 30s, 5m or 1h"

/// Every public entry point that takes values, walked with invalid ones: the error names the field and
/// the value, and nothing that was queued changes (docs/ARCHITECTURE.md §4, "bad input"). The scheduler's job fields have
/// their own table in `SyncSchedulerTests.badInput`.
@Suite("Bad input across the public API", .timeLimit(.minutes(1)))
struct BadInputTests {
    @Test(
        "waitUntil rejects invalid arguments, naming them, and leaves no waiter",
        arguments: [
            (
                Duration.seconds(-1), Set<SyncCondition>(),
                SyncGateError.invalidArgument(parameter: "timeout", message: "-1.0 seconds is negative")
            ),
            (
                Duration.milliseconds(-1), Set<SyncCondition>(),
                SyncGateError.invalidArgument(parameter: "timeout", message: "-0.001 seconds is negative")
            ),
            (
                Duration.seconds(1), Set<SyncCondition>([""]),
                SyncGateError.invalidArgument(parameter: "conditions", message: "a condition's name is empty")
            ),
        ]
    )
    func waitUntilArguments(timeout: Duration, conditions: Set<SyncCondition>, error: SyncGateError) async {
        let clock = ManualClock()
        let manual = ManualSyncEnvironment(clock: clock)
        let parked = Task { try await manual.environment.waitUntil(.network, timeout: .seconds(60)) }
        await clock.waitForSleepers(1)
        await #expect(throws: error) {
            try await manual.environment.waitUntil(.network, conditions: conditions, timeout: timeout)
        }
        #expect(manual.environment.waiterCount == 1)
        manual.setConnectivity(.connected(via: .wifi))
        let status = try? await parked.value
        #expect(status?.connectivity.isConnected == true)
        #expect(manual.environment.waiterCount == 0)
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

    @Test(
        "the command line refuses bad durations, naming the option and the value",
        arguments: [
            ("", "--timeout", "invalid duration '' for --timeout: " + expectedUnit),
            ("-1s", "--timeout", "invalid duration '-1s' for --timeout: must not be negative"),
            ("10", "--backoff", "invalid duration '10' for --backoff: " + expectedUnit),
            ("5d", "--timeout", "invalid duration '5d' for --timeout: unknown unit 'd' (use ms, s, m or h)"),
            ("9000h", "--timeout", "invalid duration '9000h' for --timeout: longer than 8760h"),
        ]
    )
    func commandLineDurations(text: String, option: String, message: String) {
        #expect(throws: UsageError(message)) { try DurationParser.parse(text, option: option) }
    }

    @Test("unknown requirement spellings are refused", arguments: ["", "wifi", "network,", "low-power"])
    func requirementSpellings(name: String) {
        #expect(SyncRequirements(name: name) == nil)
    }
}
