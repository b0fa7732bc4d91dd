import SyncGate

/// What `syncgate demo` knows about its jobs and its story so far; shared by the jobs and the display.
final class DemoBoard: Sendable {
    /// One job's record.
    struct Row: Sendable {
        /// The job's plan.
        var plan: DemoJobPlan
        /// The job's handle, once submitted.
        var handle: SyncJobHandle?
        /// How many attempts started.
        var attempts = 0
        /// The running attempt's progress, 0…1.
        var progress = 0.0
        /// The timeline second of the first start.
        var startedAt: Double?
        /// The timeline second of the end.
        var finishedAt: Double?
        /// Every failed attempt's reason, in order.
        var failures: [String] = []
        /// What the job last waited for, as shown.
        var lastBlocker: String?
        /// Why the app cancelled the job.
        var cancelReason: String?
    }

    private struct State {
        var rows: [Row]
        var narration: [(at: Double, text: String)] = []
    }

    private let state: LockedState<State>
    /// The parts of the environment that are simulated rather than read from this machine.
    let simulatedParts: MonitoringOptions

    /// Creates a board for the given plans.
    init(plans: [DemoJobPlan], simulatedParts: MonitoringOptions) {
        state = LockedState(State(rows: plans.map { Row(plan: $0) }))
        self.simulatedParts = simulatedParts
    }

    /// Every row, in submission order.
    var rows: [Row] { state.withLock { $0.rows } }

    /// The narration so far.
    var narration: [(at: Double, text: String)] { state.withLock { $0.narration } }

    /// Changes the row of job `id`.
    func update(_ id: String, _ body: (inout Row) -> Void) {
        state.withLock { state in
            guard let index = state.rows.firstIndex(where: { $0.plan.id == id }) else { return }
            body(&state.rows[index])
        }
    }

    /// The row of job `id`.
    func row(_ id: String) -> Row? {
        state.withLock { $0.rows.first { $0.plan.id == id } }
    }

    /// Adds a line to the story.
    func narrate(_ text: String, at time: Double) {
        state.withLock { $0.narration.append((time, text)) }
    }

    /// What a waiting job waits for, saying which parts are this machine's and which are simulated:
    /// `network (this machine), condition photos-selected`.
    func blocker(unmet: SyncRequirements, conditions: Set<SyncCondition>) -> String {
        var names: [String] = []
        for member in SyncRequirements.members where unmet.contains(member.requirement) {
            let simulated = !member.requirement.monitoredParts.isDisjoint(with: simulatedParts)
            names.append(member.name + (simulated ? " (simulated)" : " (not met on this machine)"))
        }
        names += conditions.map { "condition \($0.name)" }.sorted()
        return names.joined(separator: ", ")
    }
}
