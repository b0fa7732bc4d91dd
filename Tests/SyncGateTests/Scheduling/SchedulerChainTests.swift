import Testing

@testable import SyncGateCore

/// Dependencies, chains and the append policies of unique work, on the pure state machine.
@Suite("Scheduler chains", .timeLimit(.minutes(3)))
struct SchedulerChainTests {
    typealias Harness = SchedulerStateMachineTests.Harness
    typealias Failure = SchedulerStateMachineTests.Failure

    static func rejection(_ harness: inout Harness, _ id: String, _ configure: (inout SyncJob) -> Void) -> String? {
        var job = SyncJob(id: id) { _ in }
        configure(&job)
        guard case .rejected(let error) = harness.machine.submit(job.spec, payload: id, now: harness.now) else {
            return nil
        }
        return "\(error)"
    }

    /// Configures a job of unique key "k" with the duplicate policy.
    static func keyed(_ policy: DuplicatePolicy) -> (inout SyncJob) -> Void {
        { job in
            job.uniqueKey = "k"
            job.onDuplicate = policy
        }
    }

    @Test("a dependent starts only after all its dependencies succeed, with their payloads as inputs in order")
    func dependentWaitsForAll() {
        var harness = Harness()
        harness.submit("a")
        harness.submit("b")
        #expect(harness.submit("c") { $0.dependsOn = ["b", "a"] }.started.isEmpty)
        #expect(harness.phase("c") == .parked)
        #expect(harness.machine.snapshot(now: harness.now).job("c")?.pendingDependencies == ["b", "a"])
        #expect(harness.finish("a").started.isEmpty)
        #expect(harness.finish("b").started == ["c"])
        let inputs = harness.keys["c"].map { harness.machine.inputs(of: $0).map(\.id) }
        #expect(inputs == ["b", "a"])
    }

    @Test("a failure cancels the chain below it, each dependent naming the ancestor that failed and why")
    func failurePropagates() {
        var harness = Harness(max: 1)
        harness.submit("a")
        harness.submit("b") { $0.dependsOn = ["a"] }
        harness.submit("c") { $0.dependsOn = ["b"] }
        harness.submit("other")
        let actions = harness.finish("a", .failure(Failure()))
        #expect(
            actions.outcomes == [
                "a: failed: Failure()",
                "b: failed: its dependency a did not succeed: failed: Failure()",
                "c: failed: its dependency a did not succeed: failed: Failure()",
            ])
        #expect(actions.started == ["other"])
        #expect(harness.machine.jobCount == 1)
    }

    @Test("cancelling a dependency fails its dependents with the cancellation as the cause")
    func cancellationPropagates() {
        var harness = Harness(status: SchedulerStateMachineTests.offline)
        harness.submit("a")
        harness.submit("b") { $0.dependsOn = ["a"] }
        let actions = harness.cancel("a")
        #expect(actions.outcomes == ["a: cancelled", "b: failed: its dependency a did not succeed: cancelled"])
    }

    @Test("unknown dependencies and a job naming itself are rejected at submit, naming the ids")
    func rejectsUnknownAndCycles() {
        var harness = Harness()
        harness.submit("a")
        #expect(
            Self.rejection(&harness, "b") { $0.dependsOn = ["a", "x", "y"] }
                == "invalid job: dependsOn names unknown jobs \"x\", \"y\" (neither unfinished nor in the history)")
        #expect(
            Self.rejection(&harness, "b") { $0.dependsOn = ["b"] }
                == "invalid job: dependsOn names the job itself, \"b\", which would be a cycle")
        harness.submit("tick") { $0.period = SyncJobPeriod(every: .seconds(60), flex: .seconds(10)) }
        #expect(
            Self.rejection(&harness, "b") { $0.dependsOn = ["tick"] }
                == "invalid job: dependsOn names periodic job \"tick\", which never succeeds")
        #expect(harness.machine.jobCount == 2)
    }

    @Test("a dependency already finished and kept counts: success runs the dependent, failure fails it")
    func finishedDependencies() {
        var harness = Harness()
        harness.submit("done")
        harness.finish("done")
        harness.submit("broken")
        harness.finish("broken", .failure(Failure()))
        #expect(harness.submit("after-done") { $0.dependsOn = ["done"] }.started == ["after-done"])
        let failed = harness.submit("after-broken") { $0.dependsOn = ["broken"] }
        #expect(failed.outcomes == ["after-broken: failed: its dependency broken did not succeed: failed: Failure()"])
    }

    @Test("append runs the new job after the key's last job, in order, never two at once")
    func appendOrder() {
        var harness = Harness()
        var order: [String] = []
        order += harness.submit("a") { $0.uniqueKey = "k" }.started
        for id in ["b", "c"] {
            order +=
                harness.submit(id) {
                    $0.uniqueKey = "k"
                    $0.onDuplicate = .append
                }.started
        }
        #expect(harness.machine.snapshot(now: harness.now).job("c")?.dependsOn == ["b"])
        while let last = order.last, order.count < 3 {
            #expect(harness.machine.running.count == 1)
            order += harness.finish(last).started
        }
        #expect(order == ["a", "b", "c"])
        #expect(harness.finish("c").outcomes == ["c: succeeded"])
    }

    @Test(
        "when the key's job fails, append fails the new job and appendOrReplace runs it",
        arguments: [
            (
                DuplicatePolicy.append,
                ["a: failed: Failure()", "b: failed: its dependency a did not succeed: failed: Failure()"], [String]()
            ),
            (DuplicatePolicy.appendOrReplace, ["a: failed: Failure()"], ["b"]),
        ])
    func appendAfterFailure(policy: DuplicatePolicy, outcomes: [String], started: [String]) {
        var harness = Harness()
        harness.submit("a") { $0.uniqueKey = "k" }
        harness.submit("b") {
            $0.uniqueKey = "k"
            $0.onDuplicate = policy
        }
        let actions = harness.finish("a", .failure(Failure()))
        #expect(actions.outcomes == outcomes)
        #expect(actions.started == started)
    }

    @Test("a job appended with appendOrReplace behind a cancelled middle link still waits for the key's earlier job")
    func appendOrReplaceBehindCancelledLink() {
        var harness = Harness()
        harness.submit("a") { $0.uniqueKey = "k" }
        harness.submit("b", Self.keyed(.append))
        harness.submit("c", Self.keyed(.appendOrReplace))
        let cancelled = harness.cancel("b")
        #expect(cancelled.outcomes == ["b: cancelled"])
        #expect(cancelled.started.isEmpty)
        #expect(harness.machine.snapshot(now: harness.now).job("c")?.pendingDependencies == ["a"])
        #expect(harness.finish("a", .failure(Failure())).started == ["c"])
    }

    @Test(
        "a job appended with appendOrReplace behind a link failed by its own dependency waits for the key's earlier job"
    )
    func appendOrReplaceBehindFailedLink() {
        // Found by the model stress (seed 10463509076728137028): b expired while parked behind a, which
        // failed c; d, released by c, ran beside a.
        var harness = Harness(status: SchedulerStateMachineTests.offline)
        harness.submit("a") { $0.uniqueKey = "k" }
        for (id, policy) in [("b", DuplicatePolicy.append), ("c", .append), ("d", .appendOrReplace)] {
            harness.submit(id, Self.keyed(policy))
        }
        let cancelled = harness.cancel("b")
        #expect(cancelled.outcomes == ["b: cancelled", "c: failed: its dependency b did not succeed: cancelled"])
        #expect(harness.machine.snapshot(now: harness.now).job("d")?.pendingDependencies == ["a"])
        #expect(harness.status(SchedulerStateMachineTests.online).started == ["a"])
        #expect(harness.finish("a").started == ["d"])
    }

    @Test("a job appended behind a running job starts when it returns, after the key's parked job was cancelled")
    func appendOrReplaceAfterCancelledParkedJob() {
        // Found by the model stress's liveness check: the cancelled job stayed recorded as the key's
        // parked job, so the key's release never started the job appended later, which waited forever.
        var harness = Harness()
        harness.submit("a") { $0.uniqueKey = "k" }
        harness.submit("b", Self.keyed(.replace))
        #expect(harness.phase("b") == .parked)
        #expect(harness.cancel("b").outcomes == ["b: cancelled"])
        #expect(harness.finish("a", .failure(CancellationError())).outcomes == ["a: cancelled"])
        #expect(harness.submit("c") { $0.uniqueKey = "k" }.started == ["c"])
        harness.submit("d", Self.keyed(.appendOrReplace))
        #expect(harness.finish("c").started == ["d"])
    }

    @Test("replace and cancel(uniqueKey:) end the whole appended chain")
    func replaceEndsChain() {
        var harness = Harness(status: SchedulerStateMachineTests.offline)
        harness.submit("a") { $0.uniqueKey = "k" }
        harness.submit("b") {
            $0.uniqueKey = "k"
            $0.onDuplicate = .append
        }
        let replaced = harness.submit("c") {
            $0.uniqueKey = "k"
            $0.onDuplicate = .replace
        }
        #expect(replaced.outcomes == ["b: cancelled", "a: cancelled"])
        harness.submit("d") {
            $0.uniqueKey = "k"
            $0.onDuplicate = .append
        }
        let cancelled = harness.machine.cancel(uniqueKey: "k", now: harness.now)
        #expect(cancelled.outcomes == ["d: cancelled", "c: cancelled"])
        #expect(harness.machine.jobCount == 0)
    }

    @Test("appending to a periodic job is rejected, naming the job and the key")
    func appendToPeriodic() {
        var harness = Harness()
        harness.submit("tick") {
            $0.uniqueKey = "k"
            $0.period = SyncJobPeriod(every: .seconds(60), flex: .seconds(10))
        }
        let reason = Self.rejection(&harness, "b") {
            $0.uniqueKey = "k"
            $0.onDuplicate = .append
        }
        #expect(reason == "invalid job: onDuplicate append cannot follow periodic job \"tick\" of uniqueKey \"k\"")
    }

    @Test("a chain of 100 000 jobs fails to its end without deepening the stack")
    func longChain() {
        var harness = Harness(status: SchedulerStateMachineTests.offline)
        harness.submit("job-0")
        for index in 1..<100_000 { harness.submit("job-\(index)") { $0.dependsOn = ["job-\(index - 1)"] } }
        #expect(harness.cancel("job-0").outcomes.count == 100_000)
        #expect(harness.machine.jobCount == 0)
    }
}
