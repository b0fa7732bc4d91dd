import SyncGate
import SyncGateTesting

/// The scheduler most scheduling suites start from: on a ``ManualClock``, over a
/// ``ManualSyncEnvironment`` online by Wi-Fi with an available account, with two slots, jitter fixed at
/// the middle of its range and ten finished jobs kept.
enum ManualSchedulerSetup {
    /// A new clock, environment and scheduler.
    static func make() throws -> (clock: ManualClock, manual: ManualSyncEnvironment, scheduler: SyncScheduler) {
        let clock = ManualClock()
        let manual = ManualSyncEnvironment(account: .available, clock: clock)
        manual.setConnectivity(.connected(via: .wifi))
        let scheduler = try SyncScheduler(
            environment: manual.environment,
            configuration: .init(maxConcurrentJobs: 2, randomSource: { 0.5 }, history: .init(maxCount: 10)),
            clock: clock
        )
        return (clock, manual, scheduler)
    }
}
