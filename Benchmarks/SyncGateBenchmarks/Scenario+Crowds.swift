import SyncGate
import SyncGateTesting

extension Scenario {
    /// Scenario 4: throughput of no-op jobs with 64 slots; baseline a TaskGroup with a window of 64.
    static func runThroughput(_ sizes: BenchmarkOptions.Sizes) async throws -> ScenarioResult {
        let name = Scenario.throughput.name
        let count = sizes.throughputJobs
        let slots = sizes.throughputSlots
        var result = ScenarioResult(
            name: name, number: 4, title: "throughput of \(count) no-op jobs, \(slots) slots",
            measures: "from just before the first submit to the start of the last job's body; one driver task "
                + "builds and submits every job (`await scheduler.submit(SyncJob { … })`, network already up, "
                + "maxConcurrentJobs \(slots)); baseline: a TaskGroup keeping \(slots) child tasks in flight "
                + "(addTask, then next() before each further addTask) running the same body; also the same jobs on a "
                + "one-lock skeleton scheduler (SkeletonScheduler: the floor of the lock, allocations and hand-offs); "
                + "on the contract's floor (ContractFloorScheduler: the skeleton plus what these jobs use of the "
                + "contract: string ids refused while in use, a handle's states and outcome, requirements, "
                + "priorities, the clock, the events' count and the history); "
                + "and the same jobs submitted \(Self.throughputBatch) at a time with `submit(contentsOf:)`"
        )
        let baseline = try await taskGroupThroughput(count: count, window: slots, scenario: name)
        let (measured, submitting) = try await schedulerThroughput(
            count: count, slots: slots, patience: sizes.patience, scenario: name)
        let floor = try await skeletonThroughput(count: count, slots: slots, patience: sizes.patience, scenario: name)
        let contract = try await contractFloorThroughput(
            count: count, slots: slots, patience: sizes.patience, scenario: name)
        let (batched, batchSubmitting) = try await schedulerThroughput(
            count: count, slots: slots, batch: Self.throughputBatch, patience: sizes.patience, scenario: name)
        result.figures += [
            Figure(
                "SyncGate jobs per second", measured, unit: "jobs/s",
                baselineName: "TaskGroup, window \(slots)", baseline: baseline,
                goal: "≥ 1.0× the TaskGroup", goalMet: measured >= baseline
            ),
            Figure(
                "SyncGate jobs per second, submitted \(Self.throughputBatch) at a time (submit(contentsOf:))", batched,
                unit: "jobs/s", baselineName: "TaskGroup, window \(slots)", baseline: baseline),
            Figure("the driver task submitting them, one submit(_:) per job", submitting, unit: "s"),
            Figure(
                "the driver task submitting them, \(Self.throughputBatch) per submit(contentsOf:)", batchSubmitting,
                unit: "s", baselineName: "one submit(_:) per job", baseline: submitting),
            Figure(
                "one-lock skeleton scheduler (handle, index, FIFO, reused runner tasks; no bookkeeping)", floor,
                unit: "jobs/s", baselineName: "TaskGroup, window \(slots)", baseline: baseline),
            Figure(
                "the contract's floor (the skeleton plus ids, handle states, requirements, history)", contract,
                unit: "jobs/s", baselineName: "TaskGroup, window \(slots)", baseline: baseline),
            Figure(
                "SyncGate against the contract's floor", measured, unit: "jobs/s",
                baselineName: "the contract's floor", baseline: contract),
        ]
        result.checks.append("each of the \(count) jobs ran exactly once, in all five runs")
        return result
    }

    /// How many jobs each `submit(contentsOf:)` call of scenario 4's batched run submits.
    static let throughputBatch = 64

    /// The jobs on `SyncScheduler`, submitted one call per job, or `batch` jobs per `submit(contentsOf:)`;
    /// returns jobs per second and the seconds the driver task spent submitting.
    private static func schedulerThroughput(
        count: Int, slots: Int, batch: Int = 1, patience: Duration, scenario: String
    ) async throws -> (jobsPerSecond: Double, submitting: Double) {
        let manual = ManualSyncEnvironment(connectivity: .connected(via: .wiredEthernet))
        let scheduler = try SyncScheduler(
            environment: manual.environment, configuration: .init(maxConcurrentJobs: slots))
        var submitting = Duration.zero
        let rate = try await jobsPerSecond(count: count, scenario: scenario) { ledger in
            let start = ContinuousClock.now
            if batch == 1 {
                for index in 0..<count {
                    try scheduler.submit(SyncJob(requires: .network) { _ in ledger.record(index) })
                }
            } else {
                for first in stride(from: 0, to: count, by: batch) {
                    try scheduler.submit(
                        contentsOf: (first..<min(first + batch, count)).lazy.map { index in
                            SyncJob(requires: .network) { _ in ledger.record(index) }
                        })
                }
            }
            submitting = start.duration(to: .now)
            try await ledger.waitForAll(scenario: scenario, limit: patience)
            await scheduler.shutdown(gracePeriod: .seconds(5))
        }
        return (rate, submitting.nanoseconds / 1e9)
    }

    /// The same jobs on ``SkeletonScheduler``: what one lock, a handle, an index and reused runner tasks
    /// cost without any of `SyncScheduler`'s bookkeeping.
    private static func skeletonThroughput(
        count: Int, slots: Int, patience: Duration, scenario: String
    ) async throws -> Double {
        let skeleton = SkeletonScheduler(slots: slots)
        return try await jobsPerSecond(count: count, scenario: scenario) { ledger in
            for index in 0..<count {
                skeleton.submit { ledger.record(index) }
            }
            try await ledger.waitForAll(scenario: scenario, limit: patience)
        }
    }

    /// The same jobs on ``ContractFloorScheduler``: what the part of the contract these jobs use costs
    /// when done the simplest way.
    private static func contractFloorThroughput(
        count: Int, slots: Int, patience: Duration, scenario: String
    ) async throws -> Double {
        let status = ManualSyncEnvironment(connectivity: .connected(via: .wiredEthernet)).environment.status
        let scheduler = ContractFloorScheduler(slots: slots, status: status)
        return try await jobsPerSecond(count: count, scenario: scenario) { ledger in
            for index in 0..<count {
                try scheduler.submit(
                    ContractFloorScheduler.Job(id: scheduler.makeID(), requirements: .network, priority: 1) { _ in
                        ledger.record(index)
                    })
            }
            try await ledger.waitForAll(scenario: scenario, limit: patience)
        }
    }

    private static func taskGroupThroughput(count: Int, window: Int, scenario: String) async throws -> Double {
        try await jobsPerSecond(count: count, scenario: scenario) { ledger in
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<count {
                    if index >= window { await group.next() }
                    group.addTask { ledger.record(index) }
                }
            }
        }
    }

    /// Times `run`, which must run `count` jobs whose bodies record themselves in the ledger it is given
    /// and return once all have run; checks that each ran exactly once and returns jobs per second, from
    /// just before `run` to the start of the last body.
    private static func jobsPerSecond(
        count: Int, scenario: String, _ run: (RunLedger) async throws -> Void
    ) async throws -> Double {
        let ledger = RunLedger(count: count)
        let start = ContinuousClock.now
        try await run(ledger)
        try ledger.verifyExactlyOnce(scenario: scenario)
        let last = ledger.offsets(from: start).max() ?? 0
        return Double(count) / (last / 1e9)
    }

    /// How many times scenario 5 releases its crowd, each time followed by its reference: the figures are
    /// the medians, since one reference run moves 2–5× with how fast the VM hands out fresh memory.
    static let releaseRounds = 3

    /// Scenario 5: a crowd of waiting jobs released by one change: time until all have started.
    static func runRelease(_ sizes: BenchmarkOptions.Sizes) async throws -> ScenarioResult {
        let name = Scenario.release.name
        let count = sizes.releasedJobs
        var result = ScenarioResult(
            name: name, number: 5, title: "\(count) waiting jobs released by one change",
            measures: "from just before ManualConnectivityObserver.send(connected) to the first instruction of "
                + "each job's body; \(count) jobs needing .network, maxConcurrentJobs \(count) so the change "
                + "makes every one runnable at once; reference: as many bare `Task {}` with the same body, created "
                + "in a loop by one task (the floor for starting that many jobs at once on Swift's tasks); "
                + "\(releaseRounds) rounds, each a release on a new scheduler and then the reference, figures "
                + "the medians of the rounds"
        )
        var releases: [(offsets: [Double], sendReturned: Duration)] = []
        var references: [(all: Double, loop: Double)] = []
        for _ in 0..<releaseRounds {
            releases.append(try await schedulerRelease(count: count, patience: sizes.patience, scenario: name))
            references.append(try await bareTaskRelease(count: count, patience: sizes.patience, scenario: name))
        }
        func median(_ values: [Double]) -> Double { LatencySummary.percentile(0.5, ofSorted: values.sorted()) }
        let alls = releases.map { ($0.offsets.max() ?? 0) / 1e6 }
        let ratios = zip(alls, references).map { $0 / $1.all }
        // The round whose release is the median one gives the curve and the other figures.
        let middle = alls.indices.sorted { alls[$0] < alls[$1] }[alls.count / 2]
        let summary = LatencySummary(nanoseconds: releases[middle].offsets)
        let all = alls[middle]
        let bare = median(references.map(\.all))
        let ratio = median(ratios)
        result.figures += [
            Figure(
                "all \(count) started after", all, unit: "ms",
                baselineName: "as many `Task {}` created in a loop, all started", baseline: bare,
                goal: "≤ 1.3× the bare tasks (median of the rounds' ratios)", goalMet: ratio <= 1.3),
            Figure("half started after", summary.value("p50") / 1e6, unit: "ms"),
            Figure("first started after", summary.value("p0") / 1e6, unit: "ms"),
            Figure("send() returned after", releases[middle].sendReturned.nanoseconds / 1e6, unit: "ms"),
            Figure(
                "reference: the loop creating \(count) `Task {}` returned after", median(references.map(\.loop)),
                unit: "ms"),
        ]
        result.curves.append(ReleaseCurve(name: "jobs started (scenario 5)", offsets: releases[middle].offsets))
        result.notes.append(
            "rounds: SyncGate " + alls.map { String(format: "%.0f", $0) }.joined(separator: ", ")
                + " ms; reference " + references.map { String(format: "%.0f", $0.all) }.joined(separator: ", ")
                + " ms; ratios " + ratios.map { String(format: "%.2f×", $0) }.joined(separator: ", ")
                + " (median " + String(format: "%.2f×", ratio) + ")")
        result.checks.append(
            "in every round, no job ran before the change; each of the \(count) ran exactly once (and each of the "
                + "reference's tasks)")
        return result
    }

    /// One release of scenario 5 on a new scheduler: `count` waiting jobs, one change; returns each body's
    /// start, in nanoseconds from just before the change, and how long `send` took.
    private static func schedulerRelease(
        count: Int, patience: Duration, scenario: String
    ) async throws -> (offsets: [Double], sendReturned: Duration) {
        let manual = ManualSyncEnvironment(connectivity: .disconnected)
        let scheduler = try SyncScheduler(
            environment: manual.environment, configuration: .init(maxConcurrentJobs: count))
        let ledger = RunLedger(count: count)
        for index in 0..<count {
            try scheduler.submit(SyncJob(requires: .network) { _ in ledger.record(index) })
        }
        guard ledger.recorded == 0 else {
            throw BenchmarkFailure(scenario: scenario, message: "\(ledger.recorded) jobs ran before the change")
        }
        let start = ContinuousClock.now
        manual.connectivity.send(.connected(via: .wiredEthernet))
        let sendReturned = start.duration(to: .now)
        try await ledger.waitForAll(scenario: scenario, limit: patience)
        await scheduler.shutdown(gracePeriod: .seconds(5))
        try ledger.verifyExactlyOnce(scenario: scenario)
        return (ledger.offsets(from: start), sendReturned)
    }

    /// The reference of scenario 5: `count` bare tasks with the same body, created in a loop by one task,
    /// which is what running that many jobs at once on Swift's tasks costs before any bookkeeping (a
    /// release of `count` jobs cannot start them sooner than this). Returns, in milliseconds, when the
    /// last body started and when the loop returned.
    private static func bareTaskRelease(
        count: Int, patience: Duration, scenario: String
    ) async throws -> (all: Double, loop: Double) {
        let ledger = RunLedger(count: count)
        let start = ContinuousClock.now
        for index in 0..<count {
            Task { ledger.record(index) }
        }
        let loop = start.duration(to: .now)
        try await ledger.waitForAll(scenario: scenario, limit: patience)
        try ledger.verifyExactlyOnce(scenario: scenario)
        let all = ledger.offsets(from: start).max() ?? 0
        return (all / 1e6, loop.nanoseconds / 1e6)
    }

    /// Scenario 6: `waitUntil` waiters released by one change: time until all have resumed.
    static func runWaiters(_ sizes: BenchmarkOptions.Sizes) async throws -> ScenarioResult {
        let name = Scenario.waiters.name
        let count = sizes.waiters
        var result = ScenarioResult(
            name: name, number: 6, title: "\(count) waitUntil waiters released by one change",
            measures: "from just before ManualConnectivityObserver.send(connected) to the first instruction "
                + "after each `try await environment.waitUntil(.network)` returns; every waiter is registered "
                + "(and given 50 ms to suspend) before the change"
        )
        let manual = ManualSyncEnvironment(connectivity: .disconnected)
        let environment = manual.environment
        let ledger = RunLedger(count: count)
        var tasks: [Task<Bool, any Error>] = []
        tasks.reserveCapacity(count)
        for index in 0..<count {
            tasks.append(
                Task {
                    let status = try await environment.waitUntil(.network)
                    ledger.record(index)
                    return status.connectivity.isConnected
                }
            )
        }
        let registered = ContinuousClock.now + sizes.patience
        while environment.waiterCount < count {
            guard ContinuousClock.now < registered else {
                throw BenchmarkFailure(
                    scenario: name, message: "only \(environment.waiterCount) of \(count) waiters registered")
            }
            try await Task.sleep(for: .milliseconds(1))
        }
        try await Task.sleep(for: .milliseconds(50))
        guard ledger.recorded == 0 else {
            throw BenchmarkFailure(scenario: name, message: "\(ledger.recorded) waiters resumed before the change")
        }
        let start = ContinuousClock.now
        manual.connectivity.send(.connected(via: .wiredEthernet))
        let sendReturned = start.duration(to: .now)
        try await ledger.waitForAll(scenario: name, limit: sizes.patience)
        var connected = 0
        for task in tasks where try await task.value { connected += 1 }
        try ledger.verifyExactlyOnce(scenario: name)
        guard connected == count, environment.waiterCount == 0 else {
            throw BenchmarkFailure(
                scenario: name,
                message: "\(connected) of \(count) waiters saw a connected status; \(environment.waiterCount) left"
            )
        }
        let offsets = ledger.offsets(from: start)
        let summary = LatencySummary(nanoseconds: offsets)
        let all = summary.value("max") / 1e6
        result.figures += [
            Figure("all \(count) resumed after", all, unit: "ms", goal: "< 50 ms", goalMet: all < 50),
            Figure("half resumed after", summary.value("p50") / 1e6, unit: "ms"),
            Figure("first resumed after", summary.value("p0") / 1e6, unit: "ms"),
            Figure("send() returned after", sendReturned.nanoseconds / 1e6, unit: "ms"),
        ]
        result.curves.append(ReleaseCurve(name: "waiters resumed (scenario 6)", offsets: offsets))
        result.checks.append(
            "no waiter resumed before the change; each of the \(count) resumed exactly once with a connected "
                + "status; no waiter left registered")
        return result
    }
}
