import Testing

@testable import SyncGate

/// The options the journal cannot keep yet are refused for durable jobs, naming the field and value,
/// rather than restored without them.
@Suite("Durable option limits")
struct DurableOptionLimitTests {
    @Test(
        "dependencies, periods and appends are refused for durable jobs",
        arguments: [
            (SyncJobOptions(dependsOn: ["a"]), "dependsOn is not supported for durable jobs yet, got [\"a\"]"),
            (
                SyncJobOptions(period: SyncJobPeriod(every: .seconds(60), flex: .seconds(10))),
                "period is not supported for durable jobs yet, got every 60.0 seconds flex 10.0 seconds"
            ),
            (
                SyncJobOptions(uniqueKey: "k", onDuplicate: .append),
                "onDuplicate append is not supported for durable jobs yet"
            ),
            (
                SyncJobOptions(uniqueKey: "k", onDuplicate: .appendOrReplace),
                "onDuplicate appendOrReplace is not supported for durable jobs yet"
            ),
            (SyncJobOptions(uniqueKey: "k", onDuplicate: .replace), nil),
        ])
    func limits(options: SyncJobOptions, reason: String?) {
        #expect(options.durableLimitation == reason)
    }
}
