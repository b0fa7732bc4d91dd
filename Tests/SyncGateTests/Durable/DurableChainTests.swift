import Foundation
import SyncGateTesting
import Testing

@testable import SyncGateCore
@testable import SyncGateDurable

/// The payload of the chain tests' jobs: the output to set, and whether the attempt fails.
struct ChainStep: Codable, Sendable {
    var output: Int?
    var fails = false
}

/// An output that JSON cannot hold.
struct UnencodableOutput: Sendable {}

/// Durable chains, dependencies with outputs, and appends across restarts ("restarts" close the store
/// and open a new scheduler and store on the same directory); ManualClock, nothing sleeps.
@Suite("Durable chains", .timeLimit(.minutes(1)))
struct DurableChainTests {
    let directory = TemporaryDirectory()
    let clock = ManualClock()
    let wall = ManualWallClock()

    /// One process lifetime.
    struct Run {
        let manual: ManualSyncEnvironment
        let scheduler: SyncScheduler
        let durable: DurableScheduler
        let store: FileJobStore
        /// Each attempt started: the job and the integer inputs it read, by dependency.
        let starts = LockedState<[(id: String, inputs: [String: Int])]>([])
        /// The context of each attempt started, in order.
        let contexts = LockedState<[SyncJobContext]>([])
        let operation = ControlledOperation()
    }

    /// Starts a "process": `step` jobs set their payload's output and end at once (or fail); `held`
    /// jobs do the same but wait for ``Run/operation`` first.
    func start(connected: Bool = false) throws -> (Run, DurableRestoreReport) {
        try start(connectivity: connected ? .connected(via: .wifi) : .disconnected)
    }

    /// Starts a "process" (see ``start(connected:)``) on `connectivity`.
    func start(connectivity: ConnectivityStatus) throws -> (Run, DurableRestoreReport) {
        let manual = ManualSyncEnvironment(connectivity: connectivity, clock: clock)
        let scheduler = try SyncScheduler(
            environment: manual.environment, configuration: .init(maxConcurrentJobs: 4, randomSource: { 0.5 }),
            clock: clock)
        let store = try FileJobStore(directory: directory.path)
        let durable = DurableScheduler(scheduler: scheduler, store: store, wallClock: wall.function)
        let run = Run(manual: manual, scheduler: scheduler, durable: durable, store: store)
        @Sendable func body(_ step: ChainStep, _ context: SyncJobContext) throws {
            var inputs: [String: Int] = [:]
            for input in context.inputs { inputs[input.id] = context.input(Int.self, from: input.id) }
            run.starts.withLock { $0.append((context.jobID, inputs)) }
            run.contexts.withLock { $0.append(context) }
            if step.fails { throw ChainFailure() }
            if let output = step.output { context.setOutput(output) }
        }
        try durable.register("step", payload: ChainStep.self) { step, context in try body(step, context) }
        try durable.register("held", payload: ChainStep.self) { step, context in
            try await run.operation.operation(context)
            try body(step, context)
        }
        try durable.register("unencodable", payload: ChainStep.self) { _, context in
            context.setOutput(UnencodableOutput())
        }
        return (run, try durable.restoreJobs())
    }

    struct ChainFailure: Error, CustomStringConvertible {
        var description: String { "chain step failed" }
    }

    /// The records of the journal in file order.
    func journal() throws -> [JobRecord] {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: directory.journal))
        let version = try #require(JournalCodec.version(ofHeader: bytes))
        return bytes.withUnsafeBytes { JournalScan($0, path: "journal", version: version).records }
    }

    @Test("a dependent restored after its dependency succeeded runs with the dependency's output as input")
    func restoredInput() async throws {
        let (first, _) = try start()
        // a is held until b is submitted: a durable job may depend only on an unfinished one.
        let dependency = try first.durable.submit(
            DurableJob(id: "a", kind: "held", payload: ChainStep(output: 42), requires: []))
        var dependent = DurableJob(id: "b", kind: "step", payload: ChainStep(output: 7))
        dependent.dependsOn = ["a"]
        try first.durable.submit(dependent)
        await first.operation.waitForStarts(1)
        first.operation.finish()
        #expect(try await dependency.outcome().state == .succeeded)
        // b waits for the network: the journal holds it with a's result, written before a's resolution.
        let records = try journal()
        let resultIndex = try #require(
            records.firstIndex { record in
                if case .dependencyEnded(2, let result) = record {
                    return result
                        == StoredJob.DependencyResult(id: "a", resolution: .succeeded, output: Data("42".utf8))
                }
                return false
            })
        let resolvedIndex = try #require(records.firstIndex(of: .resolved(sequence: 1, resolution: .succeeded)))
        #expect(resultIndex < resolvedIndex)
        try first.store.close()

        let (second, report) = try start(connected: true)
        #expect(report.restored.map(\.id) == ["b"])
        #expect(try await report.restored[0].outcome().state == .succeeded)
        #expect(second.starts.withLock { $0.map(\.id) } == ["b"])
        #expect(second.starts.withLock { $0.first?.inputs } == ["a": 42])
        #expect(try second.store.load().jobs.isEmpty)
    }

    @Test("a dependent restored with its input and started on a relaxation sees the relaxed requirements")
    func restoredInputWithRelaxation() async throws {
        let (first, _) = try start()
        let dependency = try first.durable.submit(
            DurableJob(id: "a", kind: "held", payload: ChainStep(output: 42), requires: []))
        var dependent = DurableJob(id: "b", kind: "step", payload: ChainStep(), requires: [.network, .unmetered])
        dependent.dependsOn = ["a"]
        dependent.relaxations = [.drop(.unmetered, after: .seconds(100))]
        try first.durable.submit(dependent)
        await first.operation.waitForStarts(1)
        first.operation.finish()
        #expect(try await dependency.outcome().state == .succeeded)
        try first.store.close()

        // On a hotspot b waits for `unmetered` until its relaxation drops it, 100 s after its submission.
        let (second, report) = try start(connectivity: .connected(via: .wifi, isExpensive: true))
        let handle = try #require(report.restored.first)
        await clock.waitForSleepers(1)
        wall.advance(by: 100)
        clock.advance(by: .seconds(100))
        #expect(try await handle.outcome() == .succeeded)
        let context = try #require(second.contexts.withLock { $0.first })
        #expect(second.starts.withLock { $0.first?.inputs } == ["a": 42])
        #expect(context.requirements == [.network, .unmetered])
        #expect(context.appliedRequirements == .network)
        #expect(context.relaxations == [.drop(.unmetered, after: .seconds(100))])
        #expect(context.requirementsHold)
    }

    @Test(
        "a dependent restored after its dependency did not succeed fails at once, naming the ancestor, and so do its dependents",
        arguments: [
            (JobRecord.Resolution.failed, "failed: chain step failed"), (.cancelled, "cancelled"),
            (.expired, "expired"),
        ])
    func restoredFailure(resolution: JobRecord.Resolution, cause: String) async throws {
        // What a process leaves when it dies after a's end reached b, before b's own end was written.
        let store = try FileJobStore(directory: directory.path)
        let payload = try JSONEncoder().encode(ChainStep(output: 1))
        let at = wall.now
        try store.append(.submitted(StoredJob(sequence: 1, id: "a", kind: "step", payload: payload, submittedAt: at)))
        try store.append(
            .submitted(
                StoredJob(
                    sequence: 2, id: "b", kind: "step", payload: payload, submittedAt: at,
                    options: SyncJobOptions(requires: [], dependsOn: ["a"]))))
        try store.append(
            .submitted(
                StoredJob(
                    sequence: 3, id: "c", kind: "step", payload: payload, submittedAt: at,
                    options: SyncJobOptions(requires: [], dependsOn: ["b"]))))
        try store.append(
            .dependencyEnded(
                sequence: 2,
                result: StoredJob.DependencyResult(
                    id: "a", resolution: resolution, detail: resolution == .failed ? "chain step failed" : "")))
        try store.append(.resolved(sequence: 1, resolution: resolution))
        try store.close()

        let (run, report) = try start(connected: true)
        #expect(report.restored.map(\.id) == ["b", "c"])
        for handle in report.restored {
            let outcome = try await handle.outcome()
            #expect("\(outcome)" == "failed: its dependency a did not succeed: \(cause)", "\(handle.id)")
            guard case .failed(SyncJobError.dependencyDidNotSucceed(let id, _)) = outcome else {
                Issue.record("\(handle.id): \(outcome)")
                continue
            }
            #expect(id == "a")
        }
        #expect(run.starts.withLock { $0.isEmpty })
        #expect(try run.store.load().jobs.isEmpty)
    }

    @Test("a failure in one run reaches a dependent kept by that run: the next run fails it, naming the ancestor")
    func failureReachesKeptDependent() async throws {
        let (first, _) = try start()
        try first.durable.submit(
            DurableJob(id: "a", kind: "held", payload: ChainStep(fails: true), requires: .network))
        var dependent = DurableJob(id: "b", kind: "step", payload: ChainStep())
        dependent.dependsOn = ["a"]
        try first.durable.submit(dependent)
        try first.store.close()

        // The second run knows `held` but not b's kind `step`: b is kept, a runs and fails.
        let manual = ManualSyncEnvironment(connectivity: .connected(via: .wifi), clock: clock)
        let scheduler = SyncScheduler(environment: manual.environment, clock: clock)
        let store = try FileJobStore(directory: directory.path)
        let durable = DurableScheduler(scheduler: scheduler, store: store, wallClock: wall.function)
        try durable.register("held", payload: ChainStep.self) { _, _ in throw ChainFailure() }
        let report = try durable.restoreJobs()
        #expect(report.restored.map(\.id) == ["a"])
        #expect(report.kept.map(\.id) == ["b"])
        #expect(try await report.restored[0].outcome().state.isFailed)
        try store.close()

        let (third, thirdReport) = try start(connected: true)
        #expect(thirdReport.restored.map(\.id) == ["b"])
        let outcome = try await thirdReport.restored[0].outcome()
        #expect("\(outcome)" == "failed: its dependency a did not succeed: failed: chain step failed")
        #expect(third.starts.withLock { $0.isEmpty })
    }

    @Test(
        "an appended job restored with the key's earlier job waits for it; append fails with it, appendOrReplace runs",
        arguments: [
            (DuplicatePolicy.append, false, "succeeded"), (.append, true, "failed: its dependency a did not succeed"),
            (.appendOrReplace, true, "succeeded"),
        ])
    func appendAcrossRestart(policy: DuplicatePolicy, firstFails: Bool, expected: String) async throws {
        let (first, _) = try start()
        try first.durable.submit(
            DurableJob(id: "a", kind: "held", payload: ChainStep(output: 5, fails: firstFails), uniqueKey: "k"))
        try first.durable.submit(
            DurableJob(id: "b", kind: "step", payload: ChainStep(), requires: [], uniqueKey: "k", onDuplicate: policy))
        try first.store.close()

        let (second, report) = try start(connected: true)
        #expect(report.restored.map(\.id) == ["a", "b"])
        await second.operation.waitForStarts(1)
        // a holds the key: b has not started.
        #expect(second.starts.withLock { $0.isEmpty })
        #expect(second.scheduler.job(id: "b")?.state.isTerminal == false)
        second.operation.finish()
        let outcome = try await report.restored[1].outcome()
        #expect("\(outcome)".hasPrefix(expected))
        let starts = second.starts.withLock { $0 }
        #expect(starts.first?.id == "a")
        if expected == "succeeded" {
            #expect(starts.last?.id == "b")
            #expect(starts.last?.inputs == (firstFails ? [:] : ["a": 5]))
        } else {
            #expect(starts.map(\.id) == ["a"])
        }
    }

    @Test("the end of the key's job is recorded for the job appended to it, before either resolution")
    func appendFailureRecorded() async throws {
        let (first, _) = try start()
        try first.durable.submit(DurableJob(id: "a", kind: "held", payload: ChainStep(fails: true), uniqueKey: "k"))
        let appended = try first.durable.submit(
            DurableJob(id: "b", kind: "step", payload: ChainStep(), uniqueKey: "k", onDuplicate: .append))
        first.manual.setConnectivity(.connected(via: .wifi))
        await first.operation.waitForStarts(1)
        first.operation.finish()
        #expect(try await appended.outcome().state.isFailed)
        let records = try journal()
        #expect(
            records.contains(
                .dependencyEnded(
                    sequence: 2,
                    result: StoredJob.DependencyResult(id: "a", resolution: .failed, detail: "chain step failed"))))
        try first.store.close()
    }

    @Test("a durable output that is not Encodable fails the attempt, naming the job and the type")
    func unencodableOutput() async throws {
        let (run, _) = try start(connected: true)
        let handle = try run.durable.submit(DurableJob(id: "u", kind: "unencodable", payload: ChainStep()))
        let outcome = try await handle.outcome()
        guard case .failed(let error as DurableJobError) = outcome,
            case .outputEncodingFailed(let id, let type, let reason) = error
        else {
            Issue.record("\(outcome)")
            return
        }
        #expect(id == "u")
        #expect(type.hasSuffix("UnencodableOutput"))
        #expect(reason == "the type is not Encodable")
    }

    @Test("a durable job may depend only on unfinished durable jobs: the error names the id")
    func dependsOnNonDurable() throws {
        let (run, _) = try start()
        _ = try run.scheduler.submit(SyncJob(id: "plain", requires: .network) { _ in })
        var job = DurableJob(id: "d", kind: "step", payload: ChainStep())
        job.dependsOn = ["plain"]
        let error = try #require(throws: DurableJobError.self) { try run.durable.submit(job) }
        #expect("\(error)".contains("dependsOn names \"plain\", which is not an unfinished durable job"))
        #expect(try run.store.load().jobs.isEmpty)
    }
}
