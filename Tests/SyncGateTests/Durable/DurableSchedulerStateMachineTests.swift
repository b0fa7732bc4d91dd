import Foundation
import Testing

@testable import SyncGateCore
@testable import SyncGateDurable

/// The durable layer's state machine on its own: events in, journal records out, with time passed in.
@Suite("Durable scheduler state machine", .timeLimit(.minutes(1)))
struct DurableSchedulerStateMachineTests {
    typealias Machine = DurableSchedulerStateMachine
    static let now = Date(timeIntervalSince1970: 2_000_000)
    struct Boom: Error, CustomStringConvertible {
        var description: String { "boom" }
    }

    static func delivery(_ event: SyncSchedulerEvent, shutDown: Bool = false) -> SchedulerEventDelivery {
        SchedulerEventDelivery(sequence: 1, event: event, attachment: nil, isShutDown: shutDown)
    }

    struct EventCase: Sendable, CustomTestStringConvertible {
        let name: String
        var attempt = 1
        let event: SyncSchedulerEvent
        var shutDown = false
        let expected: [JobRecord]
        var leftForNextLaunch = false
        var staysActive = false
        var testDescription: String { name }
    }

    static let eventCases: [EventCase] = [
        .init(name: "submitted writes nothing", event: .submitted(id: "j"), expected: [], staysActive: true),
        .init(
            name: "started", event: .started(id: "j", attempt: 2),
            expected: [.attemptStarted(sequence: 7, attempt: 2)], staysActive: true),
        .init(
            name: "retry scheduled at the wall-clock instant",
            event: .retryScheduled(id: "j", attempt: 2, delay: .seconds(30)),
            expected: [.attemptFinished(sequence: 7, failures: 1, retryAt: now.addingTimeInterval(30))],
            staysActive: true),
        .init(
            name: "requeued", attempt: 3, event: .requeued(id: "j", lost: .network),
            expected: [.attemptFinished(sequence: 7, failures: 2, retryAt: nil)], staysActive: true),
        .init(
            name: "succeeded resolves", event: .succeeded(id: "j"),
            expected: [.resolved(sequence: 7, resolution: .succeeded)]),
        .init(
            name: "failed resolves", event: .failed(id: "j", error: Boom()),
            expected: [.resolved(sequence: 7, resolution: .failed)]),
        .init(
            name: "cancelled resolves", event: .cancelled(id: "j"),
            expected: [.resolved(sequence: 7, resolution: .cancelled)]),
        .init(
            name: "expired resolves", event: .expired(id: "j"), expected: [.resolved(sequence: 7, resolution: .expired)]
        ),
        .init(
            name: "cancelled by shutdown stays", event: .cancelled(id: "j"), shutDown: true, expected: [],
            leftForNextLaunch: true),
        .init(
            name: "a retry left undone by shutdown keeps the attempt's end and its backoff", attempt: 2,
            event: .retryScheduled(id: "j", attempt: 3, delay: .seconds(30)), shutDown: true,
            expected: [.attemptFinished(sequence: 7, failures: 2, retryAt: now.addingTimeInterval(30))],
            staysActive: true),
        .init(
            name: "failed at shutdown resolves (attempts used up, or not to be retried)", attempt: 2,
            event: .failed(id: "j", error: Boom()), shutDown: true,
            expected: [.resolved(sequence: 7, resolution: .failed)]
        ),
        .init(
            name: "succeeded at shutdown resolves", event: .succeeded(id: "j"), shutDown: true,
            expected: [.resolved(sequence: 7, resolution: .succeeded)]),
    ]

    @Test("maps an event to its records", arguments: eventCases)
    func event(_ test: EventCase) {
        var machine = Machine()
        let active = Machine.Active(id: "j", attempt: test.attempt, series: nil)
        let activated = machine.activate(7, active, ifActive: [])
        #expect(activated == nil)
        let writes = machine.event(Self.delivery(test.event, shutDown: test.shutDown), of: 7, now: Self.now)
        #expect(writes.map(\.record) == test.expected)
        #expect(writes.allSatisfy { $0.jobID == "j" })
        #expect(machine.leftForNextLaunch == (test.leftForNextLaunch ? ["j"] : []))
        #expect((machine.active[7] != nil) == test.staysActive)
    }

    struct DependentCase: Sendable, CustomTestStringConvertible {
        let name: String
        let propagatesFailure: Bool
        let event: SyncSchedulerEvent
        let expected: StoredJob.DependencyResult?
        var testDescription: String { name }
    }

    static let dependentCases: [DependentCase] = [
        .init(
            name: "success reaches the dependent", propagatesFailure: true, event: .succeeded(id: "a"),
            expected: .init(id: "a", resolution: .succeeded)),
        .init(
            name: "failure reaches a propagating edge", propagatesFailure: true, event: .failed(id: "a", error: Boom()),
            expected: .init(id: "a", resolution: .failed, detail: "boom")),
        .init(
            name: "failure skips an appendOrReplace edge", propagatesFailure: false,
            event: .failed(id: "a", error: Boom()), expected: nil),
        .init(
            name: "success reaches an appendOrReplace edge", propagatesFailure: false, event: .succeeded(id: "a"),
            expected: .init(id: "a", resolution: .succeeded)),
        .init(
            name: "a failed dependency names the ancestor", propagatesFailure: true,
            event: .failed(id: "a", error: SyncJobError.dependencyDidNotSucceed(id: "root", outcome: .cancelled)),
            expected: .init(id: "a", resolution: .cancelled, ancestor: "root")),
    ]

    @Test("tells dependents how a job ended, before its resolution", arguments: dependentCases)
    func dependents(_ test: DependentCase) {
        var machine = Machine()
        let dependencyActivated = machine.activate(
            1, .init(id: "a", attempt: 1, series: nil), ifActive: [])
        #expect(dependencyActivated == nil)
        let edge = Machine.Edge(id: "a", propagatesFailure: test.propagatesFailure)
        let dependentActivated = machine.activate(
            2, .init(id: "b", attempt: 0, series: nil), ifActive: [edge])
        #expect(dependentActivated == nil)
        let writes = machine.event(Self.delivery(test.event), of: 1, now: Self.now)
        var expected: [JobRecord] = test.expected.map { [.dependencyEnded(sequence: 2, result: $0)] } ?? []
        expected.append(.resolved(sequence: 1, resolution: JobLifecycle.resolution(of: test.event)!))
        #expect(writes.map(\.record) == expected)
        #expect(machine.edges[1] == nil)
    }

    @Test func activationRefusesAnEndedDependency() {
        var machine = Machine()
        let edge = Machine.Edge(id: "gone", propagatesFailure: true)
        let ended = machine.activate(1, .init(id: "a", attempt: 0, series: nil), ifActive: [edge])
        #expect(ended == "gone")
        #expect(machine.active.isEmpty)
    }

    @Test func startWaitersRunOnceTheirRecordIsWritten() {
        var machine = Machine()
        let activated = machine.activate(1, .init(id: "a", attempt: 0, series: nil), ifActive: [])
        #expect(activated == nil)
        let mayRun = machine.attemptBegins(1)
        #expect(!mayRun)
        #expect(!machine.isStartRecorded(1))
        let mayRunNow = machine.startRecorded(1)
        #expect(mayRunNow)
        // The record may come first: the operation then does not wait.
        let mayRunAfterEarlyRecord = machine.startRecorded(1)
        #expect(mayRunAfterEarlyRecord)
        let beginsRecorded = machine.attemptBegins(1)
        #expect(beginsRecorded)
        let goneMayRun = machine.attemptBegins(99)
        #expect(goneMayRun)
    }

    @Test func restoreExpiresAndTellsDependents() {
        var machine = Machine()
        var options = SyncJobOptions()
        options.startDeadline = .seconds(1)
        let expiring = StoredJob(
            sequence: 1, id: "x", kind: "k", payload: Data(), submittedAt: Self.now, options: options)
        var dependentOptions = SyncJobOptions()
        dependentOptions.dependsOn = ["x"]
        let dependent = StoredJob(
            sequence: 2, id: "y", kind: "k", payload: Data(), submittedAt: Self.now, options: dependentOptions)
        let contents = JobStoreContents(jobs: [expiring, dependent], highestSequence: 5)
        var start = machine.beginRestore(contents.jobs, readiness: [.ready, .ready], now: Self.now + 10)
        let failure = StoredJob.DependencyResult(id: "x", resolution: .expired)
        #expect(
            start.writes.map(\.record) == [
                .dependencyEnded(sequence: 2, result: failure), .resolved(sequence: 1, resolution: .expired),
            ])
        #expect(start.submission(at: 1, filesChanged: { _, _ in false })?.dependencies.failure?.id == "x")
        #expect(start.submission(at: 0, filesChanged: { _, _ in false }) == nil)
        #expect(machine.active[2]?.id == "y")
        while let step = start.plan.next() {
            if step.action == .submit { start.plan.settle(.rejected("no")) }
        }
        let writes = machine.finishRestore(start, contents: contents)
        #expect(writes.isEmpty)
        #expect(machine.active.isEmpty)
        #expect(machine.keptJobs.map(\.id) == ["y"])
        let nextSequence = machine.reserveSequence()
        #expect(nextSequence == 6)
    }
}
