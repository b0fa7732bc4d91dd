import SyncGate
import SyncGateTesting
import Testing

/// Stress of the whole scheduler (actor, core, tasks, timers) with seeded workloads: once on a
/// ManualClock driven step by step, once on the real clock with concurrent submitters, cancellers and
/// an environment flapper. Invariants are checked where they can be seen: at every attempt's start, after
/// every step, and at the end (docs/ARCHITECTURE.md §4, "exactly once").
@Suite("Scheduler shell stress", .timeLimit(.minutes(4)))
struct SchedulerShellStressTests {
    struct Failure: Error {}

    /// What a job's operation does.
    enum Behavior: CaseIterable {
        case succeed, fail, failWithoutRetry, ignoreCancellationForAWhile, runUntilCancelled
    }

    /// Watches attempts from inside their operations.
    final class Monitor: Sendable {
        private struct State {
            var running = 0
            var runningKeys: Set<String> = []
            var runningGroups: Set<String> = []
            var violations: [String] = []
            var starts = 0
        }

        private let state = LockedState(State())
        let maxConcurrentJobs: Int
        private let handles = LockedState<[SyncJob.ID: SyncJobHandle]>([:])
        private let groups = LockedState<[SyncJob.ID: String]>([:])

        init(maxConcurrentJobs: Int) {
            self.maxConcurrentJobs = maxConcurrentJobs
        }

        var violations: [String] { state.withLock { $0.violations } }
        var starts: Int { state.withLock { $0.starts } }

        func accepted(_ job: SyncJob, handle: SyncJobHandle) {
            guard handle.id == job.id else { return }
            handles.withLock { $0[job.id] = handle }
            if let group = job.serialGroup { groups.withLock { $0[job.id] = group } }
        }

        /// The serial group of each accepted job.
        var groupOfJob: [SyncJob.ID: String] { groups.withLock { $0 } }

        /// Checks that every dependency of a starting job has succeeded (or, behind an `appendOrReplace`
        /// edge, ended): the handles' states are set in the critical section that starts the job.
        func checkDependencies(of job: SyncJob, in scheduler: SyncScheduler) {
            guard let dependsOn = scheduler.job(id: job.id)?.dependsOn, !dependsOn.isEmpty else { return }
            let known = handles.withLock { $0 }
            for id in dependsOn {
                guard let state = known[id]?.state else { continue }
                let isSoft = job.onDuplicate == .appendOrReplace && !job.dependsOn.contains(id)
                if !(state == .succeeded || (isSoft && state.isTerminal)) {
                    record("\(job.id) started while its dependency \(id) is \(state)")
                }
            }
        }

        func begin(_ job: SyncJob, context: SyncJobContext) {
            state.withLock { state in
                state.starts += 1
                state.running += 1
                if state.running > maxConcurrentJobs { state.violations.append("\(state.running) running") }
                if !context.startStatus.satisfies(job.requirements, conditions: job.conditions) {
                    state.violations.append("\(job.id) started on a status that does not satisfy it")
                }
                if let key = job.uniqueKey, !state.runningKeys.insert(key).inserted {
                    state.violations.append("\(job.id): unique key \(key) already running")
                }
                if let group = job.serialGroup, !state.runningGroups.insert(group).inserted {
                    state.violations.append("\(job.id): serial group \(group) already running")
                }
            }
        }

        func end(_ job: SyncJob) {
            state.withLock { state in
                state.running -= 1
                if let key = job.uniqueKey { state.runningKeys.remove(key) }
                if let group = job.serialGroup { state.runningGroups.remove(group) }
            }
        }

        func record(_ violation: String) {
            state.withLock { $0.violations.append(violation) }
        }
    }

    /// One seeded workload against one scheduler.
    struct Workload {
        var random: SeededRandom
        /// Decides which submissions go in a batch (`submit(contentsOf:)`) and how many jobs it holds.
        var batching: SeededRandom
        /// Decides which status changes are sent from a thread off the Swift pool.
        var senders: SeededRandom
        /// How many `submit(contentsOf:)` calls were accepted in full.
        var batchesSubmitted = 0
        let manual: ManualSyncEnvironment
        let scheduler: SyncScheduler
        let monitor: Monitor
        let statuses: [ConnectivityStatus] = [
            .disconnected, .connected(via: .wifi), .connected(via: .cellular, isExpensive: true),
        ]
        let timeUnit: Duration
        var nextIndex = 0
        var handles: [SyncJobHandle] = []
        var callers: [Task<Int, any Error>] = []

        init(seed: UInt64, clock: any Clock<Duration>, timeUnit: Duration) throws {
            random = SeededRandom(seed: seed)
            batching = Self.batchingRandom(seed: seed)
            senders = Self.sendersRandom(seed: seed)
            manual = ManualSyncEnvironment(account: .available, clock: clock)
            let slots = 1 + Int(random.next() % 4)
            scheduler = try SyncScheduler(
                environment: manual.environment,
                configuration: .init(maxConcurrentJobs: slots, randomSource: { 0.5 }),
                clock: clock
            )
            monitor = Monitor(maxConcurrentJobs: slots)
            self.timeUnit = timeUnit
        }

        mutating func makeJob() -> SyncJob {
            nextIndex += 1
            var job = SyncJob(id: "job-\(nextIndex)") { _ in }
            job.requirements = random.pick([[], .network, .largeTransfer, .externalPower])
            job.conditions = random.pick([[], [], ["ready"]])
            job.priority = random.pick(SyncJobPriority.allCases)
            if random.chance(0.15) { job.delay = timeUnit * Int(1 + random.next() % 3) }
            if random.chance(0.15) { job.startDeadline = timeUnit * Int(1 + random.next() % 10) }
            if random.chance(0.3) { job.runTimeout = timeUnit * Int(1 + random.next() % 5) }
            if random.chance(0.4) {
                job.retry = random.pick([
                    .fixed(delay: timeUnit, maxAttempts: 3),
                    .exponential(initial: timeUnit, maxAttempts: 3, jitter: 0.5, resetWhenRequirementsReturn: true),
                ])
            }
            job.onRequirementsLost = random.pick([.keepRunning, .cancelAndRequeue])
            let isPeriodic = random.chance(0.03)
            if isPeriodic {
                job.startDeadline = nil
                job.period = SyncJobPeriod(every: timeUnit * Int(3 + random.next() % 5), flex: timeUnit)
            }
            if random.chance(0.2) {
                job.uniqueKey = random.pick(["u1", "u2"])
                job.onDuplicate = random.pick(
                    isPeriodic ? [.keepExisting, .replace] : [.keepExisting, .replace, .append, .appendOrReplace])
            }
            if random.chance(0.2) && !isPeriodic { job.serialGroup = random.pick(["g1", "g2"]) }
            if random.chance(0.2) && nextIndex > 1 {
                job.dependsOn = ["job-\(nextIndex - 1 - Int(random.next() % UInt64(min(nextIndex - 1, 5))))"]
            }
            job.tags = random.pick([[], ["t1"], ["t1", "t2"]])
            let behavior = random.pick(Behavior.allCases)
            let yields = Int(random.next() % 5)
            let monitor = monitor
            let scheduler = scheduler
            let spec = job
            job.operation = { context in
                monitor.checkDependencies(of: spec, in: scheduler)
                monitor.begin(spec, context: context)
                defer { monitor.end(spec) }
                try await Self.perform(behavior, yields: yields)
            }
            return job
        }

        static func perform(_ behavior: Behavior, yields: Int) async throws {
            switch behavior {
            case .succeed:
                await Task.yield()
            case .fail:
                await Task.yield()
                throw Failure()
            case .failWithoutRetry:
                throw SyncJobError.doNotRetry(Failure())
            case .ignoreCancellationForAWhile:
                for _ in 0..<yields { await Task.yield() }
            case .runUntilCancelled:
                let (never, keepAlive) = AsyncStream.makeStream(of: Void.self)
                for await _ in never {}
                keepAlive.finish()
                throw CancellationError()
            }
        }

        /// One random input; returns `true` when it was an input that moves the clock.
        mutating func step(advance: (Duration) -> Void) async throws {
            let roll = random.unit()
            if roll < 0.40 {
                if batching.chance(0.2) { return try submitBatch() }
                let job = makeJob()
                let handle: SyncJobHandle
                do {
                    handle = try scheduler.submit(job)
                } catch {
                    guard Self.isRefusedByDesign(error) else { throw error }
                    return
                }
                track(job, handle: handle)
            } else if roll < 0.45 {
                let scheduler = scheduler
                let requirements = random.pick([SyncRequirements(), .network, .largeTransfer])
                callers.append(Task { try await scheduler.run(requiring: requirements) { _ in 1 } })
            } else if roll < 0.50 {
                if let caller = callers.randomElement(using: &random) { caller.cancel() }
            } else if roll < 0.65 {
                let connectivity = random.pick(statuses)
                // Half the changes come from a thread off the pool, as an observer's do, and start their jobs'
                // tasks from there (drawn from a side stream, so the main one is as it was for each seed).
                if senders.chance(0.5) {
                    await ConsumerCancellation.onThread { [manual] in manual.setConnectivity(connectivity) }
                } else {
                    manual.setConnectivity(connectivity)
                }
                if random.chance(0.3) { manual.setPower(PowerStatus(isOnExternalPower: random.chance(0.5))) }
                if random.chance(0.3) { try manual.setCondition("ready", isMet: random.chance(0.5)) }
            } else if roll < 0.80 {
                advance(timeUnit * Int(random.next() % 3))
            } else if roll < 0.90 {
                if let handle = handles.randomElement(using: &random) {
                    if random.chance(0.5) { handle.cancel() } else { scheduler.cancel(jobID: handle.id) }
                }
            } else if roll < 0.97 {
                scheduler.cancel(tag: random.pick(["t1", "t2"]))
            } else {
                scheduler.cancelAll()
            }
        }

        /// Submits 2 to 5 jobs with one `submit(contentsOf:)`; a later job may depend on an earlier one of
        /// the same batch.
        mutating func submitBatch() throws {
            var jobs: [SyncJob] = []
            for _ in 0..<(2 + Int(batching.next() % 4)) { jobs.append(makeJob()) }
            do {
                let returned = try scheduler.submit(contentsOf: jobs)
                batchesSubmitted += 1
                for (job, handle) in zip(jobs, returned) { track(job, handle: handle) }
            } catch {
                // The jobs before the refused one were submitted, but their handles are not returned: they
                // are checked only by what needs no handle (the monitor's checks while they run, and the
                // scheduler's consistency).
                guard Self.isRefusedByDesign(error) else { throw error }
            }
        }

        /// Records an accepted job's handle for the checks at the end (not when its unique key returned an
        /// existing job's handle).
        mutating func track(_ job: SyncJob, handle: SyncJobHandle) {
            monitor.accepted(job, handle: handle)
            if handle.id == job.id { handles.append(handle) }
        }

        /// Whether the scheduler refused a random job by design: a dependency or an append on a periodic
        /// job, or a dependency on a job that was never accepted (its submission returned an existing job).
        static func isRefusedByDesign(_ error: SyncSchedulerError) -> Bool {
            guard case .invalidJob(let refusal) = error else { return false }
            return refusal.reason.contains("periodic job") || refusal.reason.contains("unknown jobs")
        }

        /// The generator that decides the batching of a workload seeded with `seed`, apart from the one that
        /// decides its jobs.
        static func batchingRandom(seed: UInt64) -> SeededRandom {
            SeededRandom(seed: seed ^ 0xBA7C_5EED)
        }

        /// The generator that decides which status changes of a workload seeded with `seed` come from a
        /// thread, apart from the ones that decide its jobs and its batching.
        static func sendersRandom(seed: UInt64) -> SeededRandom {
            SeededRandom(seed: seed ^ 0x7E4D_5EED)
        }

        /// Serial groups start in submission order, one at a time: when a job of a group starts, every job
        /// of the group submitted before it has ended. Checked on the event history, which the scheduler
        /// writes in the order of its decisions, so concurrent submitters cannot blur it.
        static func serialGroupViolations(_ history: [SyncSchedulerEvent], groups: [SyncJob.ID: String]) -> [String] {
            var submitted: [String: [SyncJob.ID]] = [:]
            var ended: Set<SyncJob.ID> = []
            var violations: [String] = []
            for event in history {
                switch event {
                case .submitted(let id):
                    if let group = groups[id] { submitted[group, default: []].append(id) }
                case .started(let id, _):
                    guard let group = groups[id] else { continue }
                    let earlier = (submitted[group] ?? []).prefix { $0 != id }
                    let open = earlier.filter { !ended.contains($0) }
                    if !open.isEmpty { violations.append("\(id) started before \(open) of group \(group) ended") }
                case .succeeded(let id), .failed(let id, _), .cancelled(let id), .expired(let id):
                    ended.insert(id)
                default:
                    break
                }
            }
            return violations
        }

        /// Shuts down and checks the end state.
        func finish(seed: UInt64, events: Task<[SyncSchedulerEvent], Never>, grace: Duration) async {
            await scheduler.shutdown(gracePeriod: grace)
            for caller in callers { _ = try? await caller.value }
            let history = await events.value
            var terminal: [SyncJob.ID: Int] = [:]
            for event in history {
                switch event {
                case .succeeded, .failed, .cancelled, .expired: terminal[event.jobID, default: 0] += 1
                default: break
                }
            }
            // Every start the scheduler decided ran its job's body exactly once, even when the attempt was
            // cancelled before its task got a thread (the shell's liveness: no start is lost or doubled).
            // `run(requiring:)` callers' jobs have default ids and no monitor.
            let decidedStarts = history.count { event in
                if case .started(let id, _) = event { id.hasPrefix("job-") } else { false }
            }
            #expect(
                decidedStarts == monitor.starts,
                "seed \(seed): \(decidedStarts) starts decided, \(monitor.starts) bodies ran")
            let groupViolations = Self.serialGroupViolations(history, groups: monitor.groupOfJob)
            #expect(groupViolations.isEmpty, "seed \(seed): \(groupViolations.prefix(5))")
            var unresolved: [SyncJob.ID] = []
            for handle in handles where handle.finalOutcome == nil { unresolved.append(handle.id) }
            #expect(unresolved.isEmpty, "seed \(seed): handles not resolved: \(unresolved.prefix(5))")
            let wrongCounts = handles.filter { terminal[$0.id] != 1 }.map { "\($0.id): \(terminal[$0.id] ?? 0)" }
            #expect(wrongCounts.isEmpty, "seed \(seed): terminal events not exactly once: \(wrongCounts.prefix(5))")
            #expect(scheduler.snapshot().jobs.isEmpty, "seed \(seed): jobs left")
            #expect(manual.environment.statusBroadcast.subscriberCount == 0, "seed \(seed): status subscribers left")
            #expect(monitor.violations.isEmpty, "seed \(seed): \(monitor.violations.prefix(5))")
        }
    }

    /// Collects the scheduler's events until its stream ends (after shutdown): the linear history of
    /// everything it decided, in the order it decided it.
    static func collectEvents(_ events: AsyncStream<SyncSchedulerEvent>) -> Task<[SyncSchedulerEvent], Never> {
        Task {
            var history: [SyncSchedulerEvent] = []
            for await event in events { history.append(event) }
            return history
        }
    }

    @Test("the serial-group check catches a job that starts before an earlier one of its group ended")
    func serialGroupCheckCatchesViolations() {
        let groups = ["a": "g", "b": "g"]
        let good: [SyncSchedulerEvent] = [
            .submitted(id: "a"), .submitted(id: "b"), .started(id: "a", attempt: 1), .succeeded(id: "a"),
            .started(id: "b", attempt: 1),
        ]
        let bad: [SyncSchedulerEvent] = [.submitted(id: "a"), .submitted(id: "b"), .started(id: "b", attempt: 1)]
        #expect(Workload.serialGroupViolations(good, groups: groups).isEmpty)
        #expect(Workload.serialGroupViolations(bad, groups: groups) == ["b started before [\"a\"] of group g ended"])
    }

    @Test("seeded workloads on a ManualClock keep every invariant", arguments: StressSeeds.all)
    func manualClockWorkload(seed: UInt64) async throws {
        let clock = ManualClock()
        var workload = try Workload(seed: seed, clock: clock, timeUnit: .seconds(1))
        let events = Self.collectEvents(workload.scheduler.events)
        for step in 0..<5_000 {
            try await workload.step { clock.advance(by: $0) }
            if step % 4 == 0 { await Task.yield() }
            let violations = workload.scheduler.consistencyViolations()
            if !violations.isEmpty {
                Issue.record("seed \(seed), step \(step): \(violations.prefix(5))")
                break
            }
        }
        #expect(workload.monitor.starts > 200, "seed \(seed): too few starts to mean anything")
        #expect(workload.batchesSubmitted > 50, "seed \(seed): too few batches to mean anything")
        await workload.finish(seed: seed, events: events, grace: .zero)
        #expect(clock.sleeperCount == 0, "seed \(seed): timers left armed")
    }

    @Test("concurrent submitters, cancellers and a flapper on the real clock keep every invariant")
    func realClockConcurrency() async throws {
        let seed = StressSeeds.replaySeed ?? UInt64.random(in: 1...UInt64.max)
        let base = try Workload(seed: seed, clock: ContinuousClock(), timeUnit: .milliseconds(1))
        let events = Self.collectEvents(base.scheduler.events)
        let results = await withTaskGroup(of: Workload.self, returning: [Workload].self) { group in
            for lane in 0..<4 {
                var workload = base
                workload.random = SeededRandom(seed: seed &+ UInt64(lane))
                workload.batching = Workload.batchingRandom(seed: seed &+ UInt64(lane))
                workload.senders = Workload.sendersRandom(seed: seed &+ UInt64(lane))
                workload.nextIndex = lane * 1_000_000
                group.addTask {
                    for _ in 0..<1_000 {
                        do { try await workload.step { _ in } } catch { workload.monitor.record("step threw \(error)") }
                        if workload.random.chance(0.2) { await Task.yield() }
                    }
                    return workload
                }
            }
            var results: [Workload] = []
            for await workload in group { results.append(workload) }
            return results
        }
        var combined = base
        combined.handles = results.flatMap(\.handles)
        combined.callers = results.flatMap(\.callers)
        #expect(base.scheduler.consistencyViolations().isEmpty, "seed \(seed)")
        await combined.finish(seed: seed, events: events, grace: .milliseconds(20))
    }
}
