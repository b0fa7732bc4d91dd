extension Scenario {
    /// Scenario 1: status change → job body starts, one waiting job; baseline a continuation resume.
    static func runStatusChange(_ sizes: BenchmarkOptions.Sizes) async throws -> ScenarioResult {
        let name = Scenario.statusChange.name
        var result = ScenarioResult(
            name: name, number: 1, title: "status change → job body starts (one waiting job)",
            measures: "from just before ManualConnectivityObserver.send(connected) to the first instruction of "
                + "the waiting job's body; baseline: from just before CheckedContinuation.resume() by the driver "
                + "task to the resumed task's first instruction. Driven twice: from the measuring task (on the "
                + "global executor; after `send` or `resume` returns it suspends, so the body often runs on its "
                + "freed thread) and from a dedicated thread outside the pool, as the Linux observer's reader "
                + "thread sends a change (the body then always needs a pool thread). Also, as a reference, the "
                + "same change on a skeleton gate (SkeletonGate: a lock, a flag, the waiting jobs, a Task per "
                + "job created after the lock), on the contract's floor (ContractFloorScheduler following the "
                + "same kind of environment: the skeleton plus an id, a handle, requirements, priorities, a "
                + "status snapshot, the events counted and a history) and on the code an app writes without "
                + "SyncGate (its observer yields to an AsyncStream; a task loops `for await` over it and runs the "
                + "pending job inline when connected), sampled in the same rounds"
        )
        let probe = try await StatusChangeProbe(scenario: name, blockedJobs: 0)
        let threadProbe = try await StatusChangeProbe(scenario: name, blockedJobs: 0, fromThread: true)
        for (label, subject, fromThread) in [
            ("status change → body", probe, false), ("sent from a dedicated thread", threadProbe, true),
        ] {
            let baseline = ContinuationResumeProbe(scenario: name, fromThread: fromThread)
            let skeleton = SkeletonGateProbe(scenario: name, trigger: .open(fromThread: fromThread))
            let floor = ContractFloorProbe(scenario: name, trigger: .statusChange(fromThread: fromThread))
            let userLoop = UserLoopProbe(scenario: name, fromThread: fromThread)
            let samples = try await InterleavedSampler.run(
                [subject, skeleton, userLoop, baseline, floor], warmup: sizes.warmup, samples: sizes.samples)
            let references = References(
                skeleton: samples[1], floor: samples[4], userLoop: samples[2],
                baseline: (
                    fromThread ? "continuation resumed from that thread" : "continuation resume → resumed task",
                    samples[3]
                ))
            result.latencies += references.comparisons(of: ("SyncGate: " + label, samples[0]))
            result.latencies += references.rows
        }
        result.figures += sendFigures(probe, samples: sizes.samples)
        result.checks += try await probe.finish(limit: sizes.patience)
        result.checks += try await threadProbe.finish(limit: sizes.patience)
        result.checks.append(
            "each of the \(2 * (sizes.warmup + sizes.samples)) measured jobs ran exactly once and succeeded")
        return result
    }

    /// Scenario 2: scenario 1 with a crowd of jobs blocked on an unmet requirement; baseline scenario 1.
    static func runBlockedJobs(_ sizes: BenchmarkOptions.Sizes) async throws -> ScenarioResult {
        let name = Scenario.blockedJobs.name
        var result = ScenarioResult(
            name: name, number: 2,
            title: "status change → job body starts, \(sizes.blockedJobs) other jobs blocked",
            measures: "as scenario 1, on a scheduler that also holds \(sizes.blockedJobs) jobs needing "
                + "[.network, .cloudDrive] with the cloud drive unavailable (the change opens .network, so a "
                + "scan of every waiting job would see them all); baseline: scenario 1's figure on an empty "
                + "scheduler, sampled interleaved"
        )
        let baseline = try await StatusChangeProbe(scenario: name, blockedJobs: 0)
        let probe = try await StatusChangeProbe(scenario: name, blockedJobs: sizes.blockedJobs)
        let samples = try await InterleavedSampler.run(
            [probe, baseline], warmup: sizes.warmup, samples: sizes.samples)
        result.latencies.append(
            LatencyComparison(
                subject: "SyncGate, \(sizes.blockedJobs) blocked", series: samples[0],
                baseline: "SyncGate, none blocked (scenario 1)", baselineSeries: samples[1],
                goals: [.init(percentile: "p50", atMost: 1.2), .init(percentile: "p99", atMost: 1.2)],
                splitRegimes: false
            )
        )
        result.figures += sendFigures(probe, samples: sizes.samples)
        result.checks += try await probe.finish(limit: sizes.patience)
        _ = try await baseline.finish(limit: sizes.patience)
        result.checks.append("each measured job ran exactly once and succeeded")
        return result
    }

    /// The references of a status change → body path, all sampled in the same rounds as its subjects.
    struct References {
        /// The skeleton gate.
        var skeleton: SampleSeries
        /// The contract's floor (``ContractFloorScheduler`` following the environment).
        var floor: SampleSeries
        /// The app's own `AsyncStream` loop.
        var userLoop: SampleSeries
        /// The continuation resume, for scale, and its label.
        var baseline: (label: String, series: SampleSeries)

        /// A subject's goals: at most 1.2× the skeleton gate and at most 1.0× the app's own loop (p50 and
        /// p99); then, without goals, the subject against the continuation resume and against the contract's
        /// floor.
        func comparisons(of subject: (label: String, series: SampleSeries)) -> [LatencyComparison] {
            [
                LatencyComparison(
                    subject: subject.label, series: subject.series,
                    baseline: "skeleton gate, same trigger", baselineSeries: skeleton,
                    goals: [.init(percentile: "p50", atMost: 1.2), .init(percentile: "p99", atMost: 1.2)]),
                LatencyComparison(
                    subject: subject.label, series: subject.series,
                    baseline: "app's own AsyncStream loop", baselineSeries: userLoop,
                    goals: [.init(percentile: "p50", atMost: 1.0), .init(percentile: "p99", atMost: 1.0)]),
                LatencyComparison(
                    subject: subject.label, series: subject.series, baseline: baseline.label,
                    baselineSeries: baseline.series, goals: []),
                LatencyComparison(
                    subject: subject.label, series: subject.series, baseline: "the contract's floor, same trigger",
                    baselineSeries: floor, goals: []),
            ]
        }

        /// The references themselves, without goals: the skeleton gate and the app's loop against the
        /// continuation resume, and the contract's floor against the skeleton gate (what keeping the
        /// contract costs at the least).
        var rows: [LatencyComparison] {
            [
                LatencyComparison(
                    subject: "reference: skeleton gate", series: skeleton, baseline: baseline.label,
                    baselineSeries: baseline.series, goals: []),
                LatencyComparison(
                    subject: "reference: app's own loop", series: userLoop, baseline: baseline.label,
                    baselineSeries: baseline.series, goals: []),
                LatencyComparison(
                    subject: "reference: the contract's floor", series: floor, baseline: "skeleton gate, same trigger",
                    baselineSeries: skeleton, goals: []),
            ]
        }
    }

    /// The time `send` takes to return on the sender's thread, part of the latency above.
    private static func sendFigures(_ probe: StatusChangeProbe, samples: Int) -> [Figure] {
        let summary = LatencySummary(nanoseconds: Array(probe.sendDurations.suffix(samples)))
        return ["p50", "p99"].map { label in
            Figure(
                "send() returns on the sender's thread (broadcasts, decision, task creation), \(label)",
                summary.value(label) / 1_000, unit: "µs")
        }
    }

    /// Scenario 3: submit → body starts when already runnable; baseline `Task {}` spawn → body.
    static func runSubmit(_ sizes: BenchmarkOptions.Sizes) async throws -> ScenarioResult {
        let name = Scenario.submit.name
        var result = ScenarioResult(
            name: name, number: 3, title: "submit → job body starts (already runnable)",
            measures: "from just before `await scheduler.submit(job)` (the job value already built) to the first "
                + "instruction of its body; baseline: from just before `Task { … }` to the first instruction of "
                + "its body; both driven from a task on the global executor. Also, as a reference, the same job "
                + "submitted to an open skeleton gate (SkeletonGate: a lock, a flag, a Task per job created "
                + "after the lock) and to the contract's floor (ContractFloorScheduler, connected), sampled in "
                + "the same rounds"
        )
        let baseline = TaskSpawnProbe(scenario: name)
        let probe = SubmitProbe(scenario: name)
        let skeleton = SkeletonGateProbe(scenario: name, trigger: .submit)
        let floor = ContractFloorProbe(scenario: name, trigger: .submit)
        let samples = try await InterleavedSampler.run(
            [probe, baseline, skeleton, floor], warmup: sizes.warmup, samples: sizes.samples)
        result.latencies.append(
            LatencyComparison(
                subject: "SyncGate: submit → body", series: samples[0],
                baseline: "skeleton gate, submit → body", baselineSeries: samples[2],
                goals: [.init(percentile: "p50", atMost: 1.2), .init(percentile: "p99", atMost: 1.2)]))
        result.latencies.append(
            LatencyComparison(
                subject: "SyncGate: submit → body", series: samples[0],
                baseline: "Task {} → body", baselineSeries: samples[1], goals: []))
        result.latencies.append(
            LatencyComparison(
                subject: "SyncGate: submit → body", series: samples[0],
                baseline: "the contract's floor, submit → body", baselineSeries: samples[3], goals: []))
        result.latencies.append(
            LatencyComparison(
                subject: "reference: skeleton gate, submit → body", series: samples[2],
                baseline: "Task {} → body", baselineSeries: samples[1], goals: []))
        result.latencies.append(
            LatencyComparison(
                subject: "reference: the contract's floor, submit → body", series: samples[3],
                baseline: "skeleton gate, submit → body", baselineSeries: samples[2], goals: []))
        await probe.finish()
        result.checks.append(
            "each of the \(sizes.warmup + sizes.samples) measured jobs ran exactly once and succeeded")
        return result
    }
}
