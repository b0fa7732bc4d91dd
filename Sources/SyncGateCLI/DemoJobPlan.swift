import SyncGate

/// One job of `syncgate demo`: what it needs, how long it works, and how it misbehaves.
///
/// Times are in seconds of the demo's timeline; ``DemoCommand`` divides them by `--speed`.
struct DemoJobPlan: Sendable {
    /// The tag of every demo job, by which the summary finds them in the scheduler's history.
    static let tag = "demo"

    /// The job's identifier, shown in the display.
    var id: String
    /// What the job stands for in an app.
    var summary: String
    /// The requirements.
    var requirements: SyncRequirements
    /// The app-defined conditions.
    var conditions: Set<SyncCondition> = []
    /// The priority.
    var priority: SyncJobPriority = .normal
    /// The serial group.
    var serialGroup: String?
    /// Seconds after submission by which the job must have started.
    var startDeadline: Double?
    /// How failed attempts are retried, in timeline seconds: delay before attempt 2, attempts in all.
    var retry: (delay: Double, exponential: Bool, attempts: Int)?
    /// Seconds of work per attempt.
    var work: Double
    /// The failure of each of the first attempts, in order.
    var failures: [String] = []
    /// A failure that ends the job without retry.
    var fatalFailure: String?
    /// The condition the job sets when it succeeds.
    var setsCondition: SyncCondition?

    /// The demo's dozen jobs, in submission order.
    static let all: [DemoJobPlan] = [
        DemoJobPlan(
            id: "migrate-database", summary: "local schema migration; unlocks db-migrated",
            requirements: [], serialGroup: "disk", work: 1.2, setsCondition: "db-migrated"),
        DemoJobPlan(
            id: "refresh-feed", summary: "small download", requirements: .network, priority: .high,
            startDeadline: 8, work: 0.8),
        DemoJobPlan(
            id: "crash-reports", summary: "upload; the server is busy twice", requirements: .network,
            priority: .high, startDeadline: 8, retry: (0.4, true, 4), work: 0.3,
            failures: ["server busy (503)", "server busy (503)"]),
        DemoJobPlan(
            id: "metadata-sync", summary: "needs the signed-in account", requirements: .syncReady,
            startDeadline: 8, work: 1.0),
        DemoJobPlan(
            id: "upload-photos", summary: "large upload once photos are selected", requirements: .largeTransfer,
            conditions: ["photos-selected"], startDeadline: 8, retry: (1.0, false, 3), work: 1.5,
            failures: ["connection reset"]),
        DemoJobPlan(
            id: "documents-sync", summary: "needs the cloud drive", requirements: .cloudDriveReady,
            startDeadline: 8, work: 1.0),
        DemoJobPlan(
            id: "backup-database", summary: "after the migration, on power",
            requirements: [.externalPower, .batteryNotLow],
            conditions: ["db-migrated"], startDeadline: 8, work: 1.2),
        DemoJobPlan(
            id: "search-index", summary: "local, one disk job at a time", requirements: .notLowPower,
            serialGroup: "disk", startDeadline: 8, work: 1.0),
        DemoJobPlan(
            id: "prefetch-videos", summary: "large, only on power", requirements: [.largeTransfer, .externalPower],
            priority: .low, startDeadline: 8, work: 2.0),
        DemoJobPlan(
            id: "analytics", summary: "rejected by the server, not retried", requirements: .unmetered, priority: .low,
            startDeadline: 8, work: 0.4, fatalFailure: "server rejected the batch (400)"),
        DemoJobPlan(
            id: "shared-album", summary: "needs sharing, which the user never turns on", requirements: .syncReady,
            conditions: ["shared-albums-enabled"], startDeadline: 6, work: 1.0),
        DemoJobPlan(
            id: "export-logs", summary: "for a support ticket that gets closed", requirements: .network,
            conditions: ["support-ticket-open"], work: 1.0),
    ]

    /// The environment changes and app actions the demo simulates, at their timeline seconds.
    enum Step: Sendable {
        /// The user signs in: the simulated account becomes available.
        case signIn
        /// The simulated cloud drive becomes available.
        case cloudDriveAvailable
        /// The app sets a condition.
        case setCondition(SyncCondition)
        /// The app cancels a job, for the reason given.
        case cancel(id: String, reason: String)
    }

    /// The simulated steps, in order.
    static let script: [(at: Double, step: Step, narration: String)] = [
        (1.0, .signIn, "the user signs in (simulated account: available)"),
        (2.5, .cloudDriveAvailable, "the cloud drive becomes available (simulated)"),
        (3.0, .setCondition("photos-selected"), "the user selects photos to upload (condition photos-selected)"),
        (
            5.0, .cancel(id: "export-logs", reason: "the support ticket was closed"),
            "the support ticket is closed; the app cancels export-logs"
        ),
    ]
}
