import Testing

@testable import SyncGateCore
@testable import SyncGateDurable

/// Every arrow between the spellings of a job's life, as one table: outcome → state → event →
/// journal resolution, and the state machine's phase → a handle's state.
@Suite("A job's life in one vocabulary", .timeLimit(.minutes(1)))
struct JobLifecycleTests {
    struct Offline: Error, Equatable {}

    /// One row per way a job can end.
    struct Row: Sendable, CustomTestStringConvertible {
        var outcome: SyncJobOutcome
        var state: SyncJobState
        var event: SyncSchedulerEvent
        var resolution: JobRecord.Resolution
        var testDescription: String { "\(outcome)" }
    }

    static let rows: [Row] = [
        Row(outcome: .succeeded, state: .succeeded, event: .succeeded(id: "j"), resolution: .succeeded),
        Row(
            outcome: .failed(Offline()),
            state: .failed(Offline()),
            event: .failed(id: "j", error: Offline()),
            resolution: .failed
        ),
        Row(
            outcome: .failed(SyncJobError.runTimedOut),
            state: .failed(SyncJobError.runTimedOut),
            event: .failed(id: "j", error: SyncJobError.runTimedOut),
            resolution: .failed
        ),
        Row(outcome: .cancelled, state: .cancelled, event: .cancelled(id: "j"), resolution: .cancelled),
        Row(outcome: .expired, state: .expired, event: .expired(id: "j"), resolution: .expired),
    ]

    @Test("outcome → state → event → resolution", arguments: rows)
    func mapping(_ row: Row) {
        #expect(row.outcome.state == row.state)
        #expect(JobLifecycle.state(of: row.outcome) == row.state)
        #expect(row.state.isTerminal)
        #expect(row.state.isFailed == row.outcome.isFailed)
        let event = JobLifecycle.event(for: row.outcome, id: "j")
        #expect(event == row.event)
        #expect(event.isFailed == row.outcome.isFailed)
        #expect(JobLifecycle.resolution(of: event) == row.resolution)
        #expect(row.outcome.description == row.state.description)
    }

    @Test("every terminal resolution but discarded comes from exactly one row")
    func resolutionsCovered() {
        let fromEvents = Set(Self.rows.map(\.resolution))
        #expect(fromEvents == Set(JobRecord.Resolution.allCases).subtracting([.discarded]))
    }

    @Test(
        "events that do not end a job have no resolution",
        arguments: [
            SyncSchedulerEvent.submitted(id: "j"), .started(id: "j", attempt: 1),
            .retryScheduled(id: "j", attempt: 2, delay: .seconds(1)), .requeued(id: "j", lost: .network),
            .periodEnded(id: "j", periods: .init(succeeded: 1, failed: 0, skipped: 2)),
        ]
    )
    func nonTerminalEvents(_ event: SyncSchedulerEvent) {
        #expect(JobLifecycle.resolution(of: event) == nil)
        #expect(!event.isFailed)
    }

    @Test("the machine's phase → the handle's stored state")
    func phases() {
        typealias Phase = SchedulerStateMachine<Int>.Phase
        let table: [(Phase, [SyncJob.ID], SyncJobState)] = [
            (.waiting, [], .waiting(unmet: [], conditions: [])),
            (.parked, ["a", "b"], .blocked(by: ["a", "b"])),
            (.parked, [], .waiting(unmet: [], conditions: [])),
            (.delayed, [], .delayed(attempt: 3)),
            (.running, [], .running(attempt: 2)),
        ]
        for (phase, blockers, state) in table {
            #expect(JobLifecycle.handleState(phase, attempt: 2, nextAttempt: 3, blockers: blockers) == state)
            #expect(!state.isTerminal)
        }
    }

    @Test("a failed state and a failed event keep the error and compare it like outcomes do")
    func failedKeepsTheError() throws {
        let state = SyncJobState.failed(Offline())
        guard case .failed(let error) = state else {
            Issue.record("not failed")
            return
        }
        #expect(error is Offline)
        #expect(state != .failed(SyncJobError.runTimedOut))
        #expect(state.hashValue == SyncJobState.failed(Offline()).hashValue)
        let event = SyncSchedulerEvent.failed(id: "j", error: SyncJobError.doNotRetry(Offline()))
        #expect(event == .failed(id: "j", error: SyncJobError.doNotRetry(Offline())))
        #expect(event != .failed(id: "k", error: SyncJobError.doNotRetry(Offline())))
        #expect(event.description == "failed j: failed without retry: Offline()")
    }
}
