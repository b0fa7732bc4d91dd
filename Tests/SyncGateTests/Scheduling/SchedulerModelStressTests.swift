import SyncGateTestSupport
import SyncGateTesting
import Testing

@testable import SyncGateCore

/// A seeded, fully deterministic stress of the scheduler's state machine: a simulated shell plays the
/// tasks and the clock, a random workload drives every input in every order, and the invariants of
/// docs/ARCHITECTURE.md §4 ("exactly once" above all) are checked after every step. A failing seed is in the test's
/// arguments; replay it with `SYNCGATE_STRESS_SEED=<seed> swift test --filter SchedulerModelStress`.
///
/// The workload includes dependencies, appends to unique keys and periodic jobs; the invariants cover
/// them: no job starts before its dependencies have succeeded (or, for an `appendOrReplace` edge,
/// ended), the unfinished jobs of one unique key form one chain, and the periods of one series never
/// run at once and start at least `interval - flex` apart; a relaxed requirement or condition is ignored
/// only after its wait. Calendar jobs (on the machine's wall clock, UTC from the origin, occurrences every
/// few seconds) start inside their occurrence's window (after its randomized-delay share), except a
/// catch-up run, and each occurrence begins at most one period: a catch-up never comes twice for one
/// missed occurrence, and occurrences only move forward. Liveness is checked too: no unfinished job is
/// left waiting for something that will never release it (``Simulation/checkLiveness()``).
@Suite("Scheduler model stress", .ownThread, .serialized, .timeLimit(.minutes(5)))
struct SchedulerModelStressTests {
    typealias Machine = SchedulerStateMachine<Int>

    /// What a simulated operation does when it runs.
    enum Behavior: CaseIterable {
        case succeed, fail, failWithoutRetry, ignoreCancellation, runUntilCancelled
    }

    struct SimulatedJob {
        var spec: SyncJob.Spec
        var behavior: Behavior
        var resolutions = 0
        var startedAttempts: [Int] = []
        var phase: SyncJobState = .waiting(unmet: [], conditions: [])
        var key: Machine.Key?
        var outcome: SyncJobOutcome?
        /// When each period of a periodic job started.
        var periodStarts: [Duration] = []
        /// The occurrences (wall-clock seconds) whose periods a calendar job began, in order.
        var occurrencesBegun: [Int64] = []
        /// How many of those periods were catch-up runs.
        var catchUps = 0
        /// When it was submitted.
        var submittedAt: Duration = .zero
        /// A file-triggered job: whether a change came since its last run started (a new run needs one),
        /// the latest change that came while it waited for a change or for quiet, or ran (a new run starts
        /// at least a quiet period after it), and the runs it began.
        var changePending = false
        var lastQuietChange: Duration?
        var fileRuns = 0
    }

    struct Attempt {
        var index: Int
        var attempt: Int
        var cancelled = false
    }

    struct Simulation {
        var random: SeededRandom
        /// The generator of the calendar part of the workload, of its own so that each seed's other
        /// draws stay as they were.
        var calendarRandom: SeededRandom
        /// The generator of the file-trigger part of the workload (which jobs have a trigger, when files
        /// change), of its own for the same reason.
        var fileRandom: SeededRandom
        /// The changes reported to file-triggered jobs.
        var fileChanges = 0
        let seed: UInt64
        let maxConcurrentJobs: Int
        var machine: Machine
        var now: Duration = .zero
        var armedAt: Duration?
        var jobs: [SimulatedJob] = []
        var attempts: [Machine.Key: Attempt] = [:]
        var violations: [String] = []
        var steps = 0
        /// The batches fed through `continueStarting`.
        var continuations = 0
        /// Runs of periodic jobs requeued after a loss, and failed attempts of periodic jobs retried.
        var periodicRequeues = 0
        var periodicRetries = 0
        /// Relaxations that took effect, and starts that needed one.
        var relaxationsApplied = 0
        var relaxedStarts = 0
        /// The relaxations' own generator, so that each seed's workload is otherwise what it was.
        var relaxing: SeededRandom
        /// The allowed networks' own generator (the lists of jobs, the network in use of each status), so
        /// that each seed's workload is otherwise what it was.
        var networking: SeededRandom

        /// The networks a status may be on, and the lists a job may allow.
        static let networks: [SyncNetwork] = [
            SyncNetwork(interfaceName: "wlan0", connectionID: "Home", ssid: "Home"),
            SyncNetwork(interfaceName: "wlan0", connectionID: "Cafe", ssid: "Cafe"),
            SyncNetwork(interfaceName: "eth0", connectionID: "Office"),
            .unknown,
        ]
        static let allowlists: [SyncNetworkAllowlist] = [
            SyncNetworkAllowlist([.ssid("Home")]),
            SyncNetworkAllowlist([.interface("eth*"), .ssid("Cafe")]),
            SyncNetworkAllowlist([.connection("Office"), .interfaceType(.cellular)]),
        ]

        static let statuses: [SyncEnvironmentStatus] = {
            var statuses: [SyncEnvironmentStatus] = []
            let connectivity: [ConnectivityStatus] = [
                .disconnected, .connected(via: .wifi), .connected(via: .cellular, isExpensive: true),
                .connected(via: .wifi, isConstrained: true),
            ]
            for network in connectivity {
                for power in [
                    PowerStatus(),
                    PowerStatus(isLowPowerModeEnabled: true, isOnExternalPower: false, batteryLevel: 0.1),
                ] {
                    for conditions: Set<SyncCondition> in [[], ["a"], ["a", "b"]] {
                        statuses.append(
                            SyncEnvironmentStatus(
                                connectivity: network, power: power, account: .available, conditions: conditions)
                        )
                    }
                }
            }
            return statuses
        }()

        init(seed: UInt64) {
            self.seed = seed
            random = SeededRandom(seed: seed)
            calendarRandom = SeededRandom(seed: seed ^ 0xCA1E_DA25)
            fileRandom = SeededRandom(seed: seed ^ 0xF11E_C4A6)
            maxConcurrentJobs = 1 + Int(random.next() % 4)
            // Half the seeds start in batches, as the shell does (its batches are 256 starts): one input
            // starts at most one job, and the rest follow through `continueStarting`, with other inputs
            // possibly in between. A generator of its own keeps each seed's workload as it was.
            relaxing = SeededRandom(seed: seed ^ 0x5E1A_7ED0)
            networking = SeededRandom(seed: seed ^ 0x0E7_A110)
            var batching = SeededRandom(seed: seed ^ 0x5EED_BA7C)
            let startsPerInput = batching.chance(0.5) ? 1 : Int.max
            machine = Machine(
                maxConcurrentJobs: maxConcurrentJobs, status: Self.statuses[0], startsPerInput: startsPerInput)
        }

        // MARK: Workload

        mutating func randomSpec(index: Int) -> SyncJob.Spec {
            var job = SyncJob(id: "job-\(index)") { _ in }
            job.requirements = random.pick([[], .network, .largeTransfer, [.network, .notLowPower], .externalPower])
            job.conditions = random.pick([[], [], ["a"], ["a", "b"]])
            job.priority = random.pick(SyncJobPriority.allCases)
            if random.chance(0.2) { job.delay = .seconds(Int64(1 + random.next() % 5)) }
            if random.chance(0.2) { job.startDeadline = .seconds(Int64(1 + random.next() % 20)) }
            if random.chance(0.3) { job.runTimeout = .seconds(Int64(1 + random.next() % 10)) }
            if random.chance(0.4) {
                job.retry = random.pick([
                    .fixed(delay: .seconds(2), maxAttempts: 3),
                    .exponential(initial: .seconds(1), maxAttempts: 4, jitter: 0.5, resetWhenRequirementsReturn: true),
                ])
            }
            job.onRequirementsLost = random.pick([.keepRunning, .cancelAndRequeue])
            let isPeriodic = random.chance(0.08)
            if isPeriodic {
                job.startDeadline = nil
                job.period = SyncJobPeriod(
                    every: .seconds(Int64(5 + random.next() % 20)), flex: .seconds(Int64(1 + random.next() % 4)))
            }
            if random.chance(0.25) {
                job.uniqueKey = random.pick(["u1", "u2"])
                job.onDuplicate = random.pick(
                    isPeriodic ? [.keepExisting, .replace] : [.keepExisting, .replace, .append, .appendOrReplace])
            }
            if random.chance(0.25) && !isPeriodic { job.serialGroup = random.pick(["g1", "g2"]) }
            if random.chance(0.3) && index > 0 {
                // Mostly recent jobs (unfinished or kept), sometimes one long gone (unknown: rejected).
                let count = 1 + Int(random.next() % 2)
                let ids = (0..<count).map { _ in "job-\(max(0, index - 1 - Int(random.next() % 150)))" }
                job.dependsOn = Array(Set(ids)).sorted()
            }
            job.tags = random.pick([[], ["t1"], ["t1", "t2"]])
            if !isPeriodic && calendarRandom.chance(0.06) {
                // Occurrences every 10 or 20 seconds of wall-clock time, a window of 2 to 7 s, sometimes
                // a randomized delay within it, either catch-up policy.
                let window = Int64(2 + calendarRandom.next() % 6)
                var schedule = SyncCalendarSchedule(
                    hours: Set(0...23), minutes: Set(0...59),
                    seconds: calendarRandom.pick([[0, 10, 20, 30, 40, 50], [5, 25, 45]]), window: .seconds(window))
                if calendarRandom.chance(0.5) { schedule.randomizedDelay = .seconds(window - 1) }
                schedule.catchUp = calendarRandom.pick([.catchUpOnce, .skip])
                job.calendar = schedule
                job.startDeadline = nil
                job.serialGroup = nil
                if job.onDuplicate == .append || job.onDuplicate == .appendOrReplace { job.onDuplicate = .replace }
            }
            job.relaxations = randomRelaxations(requirements: job.requirements, conditions: job.conditions)
            if networking.chance(0.3) { job.options.allowedNetworks = networking.pick(Self.allowlists) }
            if !isPeriodic && job.calendar == nil && fileRandom.chance(0.06) {
                // A file trigger with a quiet period of 1 to 4 s; its relaxations would wait from each quiet
                // period's end, which `allowed` does not model, so it has none.
                job.fileTrigger = SyncFileTrigger(
                    paths: ["/data"], quietPeriod: .seconds(Int64(1 + fileRandom.next() % 4)))
                job.startDeadline = nil
                job.serialGroup = nil
                job.relaxations = []
                if job.onDuplicate == .append || job.onDuplicate == .appendOrReplace { job.onDuplicate = .replace }
            }
            return job.spec
        }

        /// A fallback for one requirement or condition of the job, in about a third of the jobs that have
        /// one: dropped, or replaced by `.network` or `.batteryNotLow`, after 1 to 8 s.
        mutating func randomRelaxations(
            requirements: SyncRequirements, conditions: Set<SyncCondition>
        ) -> [SyncJobRelaxation] {
            let bits = SyncRequirements.members.map(\.requirement).filter { requirements.contains($0) }
            let targets =
                bits.map(SyncJobRelaxation.Relaxed.requirement)
                + conditions.sorted { $0.name < $1.name }.map(SyncJobRelaxation.Relaxed.condition)
            guard !targets.isEmpty, relaxing.chance(0.35) else { return [] }
            let target = relaxing.pick(targets)
            let after = Duration.seconds(Int64(1 + relaxing.next() % 8))
            var replacement = relaxing.pick([SyncRequirements(), .network, .batteryNotLow])
            if case .requirement(let bit) = target { replacement.remove(bit) }
            return [SyncJobRelaxation(target, replacement: replacement, after: after)]
        }

        /// What job `index` may start on at `now` when its own requirements and conditions do not hold:
        /// them with the relaxations applied whose wait may have passed (the stress gives a job at most
        /// one). The wait begins at submission, and for a
        /// periodic job no earlier than its latest period's window could open (a period begins at the
        /// start of the previous run at the earliest).
        func allowed(_ index: Int, key: Machine.Key) -> (SyncRequirements, Set<SyncCondition>) {
            let spec = jobs[index].spec
            var requirements = spec.requirements
            var conditions = spec.conditions
            var waitStart = jobs[index].submittedAt
            if let period = spec.period {
                // The first start of each earlier period; the current one's, if any, does not bound its wait.
                let current = machine.jobs[key]?.series?.startedAt
                let earlier = jobs[index].periodStarts.last { start in current.map { start < $0 } ?? true }
                waitStart = (earlier ?? waitStart) + period.interval - period.flex
            }
            if spec.calendar != nil, let occurrence = machine.jobs[key]?.series?.occurrence {
                // A calendar job's wait begins at its occurrence's scheduled time.
                waitStart = machine.wall.offset(ofSecond: occurrence)
            }
            for relaxation in spec.relaxations where waitStart + relaxation.after <= now {
                switch relaxation.relaxed {
                case .requirement(let bit): requirements.remove(bit)
                case .condition(let condition): conditions.remove(condition)
                }
                requirements.formUnion(relaxation.replacement)
            }
            return (requirements, conditions)
        }

        mutating func step() {
            steps += 1
            // Files change now and then under an unfinished file-triggered job, whatever it is doing.
            if fileRandom.chance(0.08) {
                let candidates = jobs.indices.filter { jobs[$0].spec.fileTrigger != nil && jobs[$0].resolutions == 0 }
                if let index = candidates.randomElement(using: &fileRandom), let key = jobs[index].key {
                    changeFiles(of: index, key: key)
                    checkInvariants()
                    return
                }
            }
            // The shell feeds the rest of a batched release before or after other inputs.
            if machine.hasMoreToStart && random.chance(0.6) {
                continuations += 1
                apply(machine.continueStarting(now: now), cause: "continue starting")
                checkInvariants()
                return
            }
            let roll = random.unit()
            if roll < 0.30 {
                submit()
            } else if roll < 0.45 {
                var status = random.pick(Self.statuses)
                status.connectivity = status.connectivity.with(network: networking.pick(Self.networks))
                apply(machine.statusChanged(status, now: now), cause: "status")
            } else if roll < 0.70 {
                finishRandomAttempt()
            } else if roll < 0.82 {
                advanceTime()
            } else if roll < 0.92 {
                if let index = jobs.indices.randomElement(using: &random) {
                    apply(machine.cancel(id: jobs[index].spec.id, now: now), cause: "cancel id")
                }
            } else if roll < 0.97 {
                apply(machine.cancel(tag: random.pick(["t1", "t2"]), now: now), cause: "cancel tag")
            } else {
                apply(machine.cancelAll(now: now), cause: "cancel all")
            }
            checkInvariants()
        }

        /// Reports a change of a file-triggered job's files, noting what the invariants need.
        mutating func changeFiles(of index: Int, key: Machine.Key) {
            fileChanges += 1
            jobs[index].changePending = true
            if let job = machine.jobs[key], job.phase == .running || job.series?.fileWait != nil {
                jobs[index].lastQuietChange = now
            }
            apply(machine.filesChanged(key: key, now: now), cause: "files changed")
        }

        mutating func submit() {
            let index = jobs.count
            let spec = randomSpec(index: index)
            let behavior = random.pick(Behavior.allCases)
            jobs.append(SimulatedJob(spec: spec, behavior: behavior, submittedAt: now))
            switch machine.submit(spec, payload: index, now: now) {
            case .accepted(let key, let actions):
                jobs[index].key = key
                apply(actions, cause: "submit")
            case .existing(let existing):
                jobs[index].resolutions = -1
                if jobs[existing].spec.uniqueKey != spec.uniqueKey || jobs[existing].resolutions != 0 {
                    violations.append("step \(steps): keepExisting returned \(existing), not a live job with the key")
                }
            case .rejected(let error):
                let reason = "\(error)"
                let allowed = [
                    "dependsOn names unknown jobs", "dependsOn names periodic job", "cannot follow periodic job",
                ]
                if !allowed.contains(where: reason.contains) {
                    violations.append("step \(steps): valid job rejected: \(error)")
                }
                jobs[index].resolutions = -1
            }
        }

        mutating func finishRandomAttempt() {
            guard let key = attempts.keys.sorted().randomElement(using: &random), let attempt = attempts[key] else {
                return
            }
            let behavior = jobs[attempt.index].behavior
            let result: Result<Void, any Error>
            switch (behavior, attempt.cancelled) {
            case (.runUntilCancelled, false):
                return
            case (.ignoreCancellation, _), (.succeed, false):
                result = .success(())
            case (.fail, false):
                result = .failure(Failure())
            case (.failWithoutRetry, false):
                result = .failure(SyncJobError.doNotRetry(Failure()))
            case (_, true):
                result = .failure(CancellationError())
            }
            attempts[key] = nil
            apply(
                machine.attemptFinished(
                    key, attempt: attempt.attempt, result: result, now: now, random: { random.unit() }),
                cause: "finish"
            )
        }

        mutating func advanceTime() {
            if let armedAt, random.chance(0.7) {
                now = max(now, armedAt)
            } else {
                now += .seconds(Int64(random.next() % 3))
            }
            if let armedAt, armedAt <= now {
                self.armedAt = nil
                apply(machine.timerFired(now: now), cause: "timer")
            }
        }

        /// Shuts down, then lets every attempt return, as the shell would after the grace period.
        mutating func drain() {
            apply(machine.shutdown(now: now), cause: "shutdown")
            apply(machine.cancelAll(now: now), cause: "cancel all after grace")
            checkInvariants()
            while let key = attempts.keys.sorted().first, let attempt = attempts[key] {
                attempts[key] = nil
                apply(
                    machine.attemptFinished(
                        key, attempt: attempt.attempt, result: .failure(CancellationError()), now: now, random: { 0.5 }),
                    cause: "drain"
                )
                checkInvariants()
            }
        }

        // MARK: Shell

        mutating func apply(_ actions: [Machine.Action], cause: String) {
            for action in actions {
                switch action {
                case .start(let job, let attempt):
                    let (key, index) = (job.key, job.payload)
                    if attempts[key] != nil { violations.append("step \(steps): \(index) started twice at once") }
                    if jobs[index].resolutions != 0 {
                        violations.append("step \(steps): \(index) started after resolving")
                    }
                    let spec = jobs[index].spec
                    // The shell starts the attempt on the machine's status (the action does not copy it). A
                    // relaxed requirement is ignored only after its wait.
                    if !machine.status.allows(spec.allowedNetworks) {
                        violations.append("step \(steps): \(index) started on a network its list does not allow")
                    }
                    if !machine.status.satisfies(spec.requirements, conditions: spec.conditions) {
                        relaxedStarts += 1
                        let (required, conditions) = allowed(index, key: key)
                        if !machine.status.satisfies(required, conditions: conditions) {
                            violations.append("step \(steps): \(index) started on a status that does not satisfy it")
                        }
                    }
                    if let group = spec.serialGroup {
                        let earlier = jobs.indices.filter { $0 < index && jobs[$0].spec.serialGroup == group }
                        if let blocker = earlier.first(where: { jobs[$0].resolutions == 0 && jobs[$0].key != nil }) {
                            violations.append(
                                "step \(steps): \(index) started before \(blocker) of group \(group) ended")
                        }
                    }
                    checkDependencies(of: index, key: key)
                    // A periodic job starts only inside its period's window, whatever ran before it in
                    // the period (a requeue, a failed attempt waiting to be retried).
                    if let period = spec.period, let series = machine.jobs[key]?.series,
                        now < series.closesAt - period.flex || now > series.closesAt
                    {
                        violations.append(
                            "step \(steps): \(index) started at \(now), outside its window closing at \(series.closesAt)"
                        )
                    }
                    if let period = spec.period, let startedAt = machine.jobs[key]?.series?.startedAt,
                        startedAt == now, jobs[index].periodStarts.last != now
                    {
                        if let previous = jobs[index].periodStarts.last, now - previous < period.interval - period.flex
                        {
                            violations.append("step \(steps): \(index) began a period \(now - previous) after the last")
                        }
                        jobs[index].periodStarts.append(now)
                    }
                    checkCalendarStart(of: index, key: key)
                    checkFileTriggerStart(of: index, key: key)
                    attempts[key] = Attempt(index: index, attempt: attempt)
                    jobs[index].startedAttempts.append(attempt)
                case .cancelAttempt(let key):
                    guard attempts[key] != nil else {
                        violations.append("step \(steps): cancel of an attempt that is not running (\(cause))")
                        continue
                    }
                    attempts[key]?.cancelled = true
                case .setStopReason(let job, let reason):
                    if attempts[job.key] == nil {
                        violations.append("step \(steps): stop reason \(reason) for an attempt that is not running")
                    }
                case .setState(let job, let phase):
                    let index = job.payload
                    if jobs[index].resolutions != 0 { violations.append("step \(steps): phase of resolved \(index)") }
                    jobs[index].phase = phase
                case .resolve(let job, let outcome):
                    let index = job.payload
                    jobs[index].outcome = outcome
                    jobs[index].resolutions += 1
                    if jobs[index].resolutions > 1 { violations.append("step \(steps): \(index) resolved twice") }
                    if let key = jobs[index].key, attempts[key] != nil {
                        violations.append("step \(steps): \(index) resolved while its attempt runs")
                    }
                case .setWaitingFor(let job):
                    if jobs[job.payload].resolutions != 0 {
                        violations.append("step \(steps): requirements of resolved \(job.payload) published")
                    }
                case .emit(let event, let job):
                    if case .relaxed = event { relaxationsApplied += 1 }
                    guard job.spec.period != nil else { break }
                    switch event {
                    case .requeued: periodicRequeues += 1
                    case .retryScheduled: periodicRetries += 1
                    default: break
                    }
                case .reportSeries(let job):
                    if job.spec.calendar == nil || job.series?.heldSpan == nil {
                        violations.append("step \(steps): \(job.payload) reported with no held calendar span")
                    }
                case .armTimer(let at):
                    if at < now { violations.append("step \(steps): timer armed in the past") }
                    armedAt = at
                case .disarmTimer:
                    armedAt = nil
                }
            }
        }

        // MARK: Invariants

        /// A job starts only after its dependencies succeeded; after the job it was appended to with
        /// `appendOrReplace`, only after that one ended.
        /// A calendar job starts inside its occurrence's window, after its share of the randomized delay,
        /// unless the run is its catch-up; each period it begins is for a later occurrence than the last.
        mutating func checkCalendarStart(of index: Int, key: Machine.Key) {
            guard let schedule = jobs[index].spec.calendar, let series = machine.jobs[key]?.series,
                let occurrence = series.occurrence
            else {
                if jobs[index].spec.calendar != nil {
                    violations.append("step \(steps): calendar job \(index) started without an occurrence")
                }
                return
            }
            let wall = machine.wall
            if !series.catchingUp {
                let opens =
                    wall.offset(ofSecond: occurrence)
                    + schedule.delayShare(
                        ofSecond: occurrence, seed: SyncCalendarSchedule.seed(forJobID: jobs[index].spec.id))
                let closes = wall.offset(ofSecond: occurrence) + schedule.window
                if now < opens || now > closes {
                    violations.append(
                        "step \(steps): calendar job \(index) started at \(now), outside \(opens)...\(closes)")
                }
            }
            guard series.startedAt == now,
                jobs[index].occurrencesBegun.last != occurrence || jobs[index].periodStarts.last != now
            else { return }
            if let previous = jobs[index].occurrencesBegun.last, occurrence <= previous {
                violations.append(
                    "step \(steps): calendar job \(index) began occurrence \(occurrence) after \(previous)"
                        + (series.catchingUp ? " as a second catch-up" : ""))
            }
            jobs[index].occurrencesBegun.append(occurrence)
            jobs[index].periodStarts.append(now)
            if series.catchingUp { jobs[index].catchUps += 1 }
        }

        /// A file-triggered job begins a run only after a change since its last run began (so changes during
        /// a run make one more run, never a pile), and at least a quiet period after the latest change that
        /// came while it waited for a change or quiet, or ran.
        mutating func checkFileTriggerStart(of index: Int, key: Machine.Key) {
            guard let trigger = jobs[index].spec.fileTrigger, let series = machine.jobs[key]?.series,
                series.startedAt == now, jobs[index].periodStarts.last != now
            else { return }
            if !jobs[index].changePending {
                violations.append(
                    "step \(steps): file-triggered job \(index) began a run with no change since its last")
            }
            if let change = jobs[index].lastQuietChange, now < change + trigger.quietPeriod {
                violations.append(
                    "step \(steps): file-triggered job \(index) began a run at \(now), less than its quiet period after \(change)"
                )
            }
            jobs[index].changePending = false
            jobs[index].fileRuns += 1
            jobs[index].periodStarts.append(now)
        }

        mutating func checkDependencies(of index: Int, key: Machine.Key) {
            guard let job = machine.jobs[key] else { return }
            for id in job.dependencyIDs {
                guard let dependency = Int(id.dropFirst("job-".count)), jobs.indices.contains(dependency) else {
                    violations.append("step \(steps): \(index) depends on unknown \(id)")
                    continue
                }
                let isSoftAppend =
                    !jobs[index].spec.dependsOn.contains(id) && jobs[index].spec.onDuplicate == .appendOrReplace
                let ended = jobs[dependency].resolutions == 1
                if !ended || (!isSoftAppend && jobs[dependency].outcome != .succeeded) {
                    violations.append("step \(steps): \(index) started before its dependency \(id) succeeded")
                }
            }
        }

        /// Liveness: a waiting job waits only for its requirements or a free slot, a delayed job for an
        /// armed timer, and a parked job for something whose end releases it — unfinished dependencies, an
        /// earlier job of its serial group, or the running job of its unique key, whose return activates
        /// the one job the key has parked. A job held by none of these would never start.
        mutating func checkLiveness() {
            // A waiting job waits only for its requirements (after the relaxations in effect) or a slot.
            if machine.running.count < maxConcurrentJobs && !machine.isShutDown && !machine.hasMoreToStart {
                for job in machine.jobs.values
                where job.phase == .waiting
                    && machine.status.satisfies(
                        job.requirements, allowedNetworks: job.spec.allowedNetworks, conditions: job.conditions)
                {
                    violations.append("step \(steps): \(job.spec.id) can run, a slot is free, and it waits")
                }
            }
            // A running job whose network its list no longer allows is being stopped, if its policy says so.
            for job in machine.jobs.values
            where job.phase == .running && job.spec.onRequirementsLost == .cancelAndRequeue && job.stop == nil
                && !machine.status.allows(job.spec.allowedNetworks)
            {
                violations.append("step \(steps): \(job.spec.id) runs on a network its list does not allow")
            }
            // A delayed job has a timer, and the earliest timer that counts is armed by the time it falls due.
            // (A file-triggered job waiting for a change waits for the watcher, not a timer.)
            for job in machine.jobs.values
            where job.phase == .delayed && job.delayTimer == 0 && job.series?.fileWait != .change {
                violations.append("step \(steps): \(job.spec.id) is delayed with no timer to end the delay")
            }
            // The armed timer is exactly the earliest one that still counts, of every kind (delay,
            // start deadline or window close, run timeout): never a dead timer's time, never none.
            if armedAt != machine.earliestLiveTimer {
                violations.append(
                    "step \(steps): armed at \(String(describing: armedAt)), earliest live timer at "
                        + "\(String(describing: machine.earliestLiveTimer))")
            }
            for job in machine.jobs.values where job.phase == .parked {
                let id = job.spec.id
                if !job.pendingDependencies.isEmpty {
                    if job.pendingDependencies.contains(where: { machine.jobs[$0] == nil }) {
                        violations.append("step \(steps): \(id) waits for a job that has ended")
                    }
                    continue
                }
                if let group = job.spec.serialGroup, machine.serialGroups[group]?.first != job.key { continue }
                guard let uniqueKey = job.spec.uniqueKey, let runner = machine.runningUnique[uniqueKey],
                    runner != job.key
                else {
                    violations.append("step \(steps): \(id) is parked behind nothing and never starts")
                    continue
                }
                if machine.parkedUnique[uniqueKey] != job.key {
                    violations.append("step \(steps): \(id) is parked behind key \(uniqueKey) but not released by it")
                }
            }
        }

        mutating func checkInvariants() {
            let running = machine.running
            if running.count > maxConcurrentJobs { violations.append("step \(steps): \(running.count) running") }
            if Set(attempts.keys) != Set(running) {
                violations.append("step \(steps): running set differs from attempts")
            }
            var runningKeys: [String: Int] = [:]
            var runningGroups: [String: Int] = [:]
            for key in running {
                guard let index = machine.jobs[key]?.payload else { continue }
                if let uniqueKey = jobs[index].spec.uniqueKey { runningKeys[uniqueKey, default: 0] += 1 }
                if let group = jobs[index].spec.serialGroup { runningGroups[group, default: 0] += 1 }
            }
            if runningKeys.values.contains(where: { $0 > 1 }) {
                violations.append("step \(steps): unique key runs twice")
            }
            if runningGroups.values.contains(where: { $0 > 1 }) {
                violations.append("step \(steps): serial group runs twice")
            }
            // The live jobs of a key form one chain: only one of them waits for no other job of the key.
            var liveKeys: [String: Int] = [:]
            for job in machine.jobs.values where job.stop?.endsJob != true {
                guard let uniqueKey = job.spec.uniqueKey else { continue }
                let appended = job.pendingDependencies.contains { machine.jobs[$0]?.spec.uniqueKey == uniqueKey }
                if !appended { liveKeys[uniqueKey, default: 0] += 1 }
            }
            if liveKeys.values.contains(where: { $0 > 1 }) {
                violations.append("step \(steps): two live jobs share a key outside one chain")
            }
            checkLiveness()
            let snapshot = machine.snapshot(now: now)
            if snapshot.jobs.count != machine.jobCount { violations.append("step \(steps): snapshot count differs") }
            for entry in snapshot.jobs {
                guard let index = Int(entry.id.dropFirst("job-".count)), jobs.indices.contains(index),
                    jobs[index].resolutions == 0, jobs[index].key != nil
                else {
                    violations.append("step \(steps): snapshot lists \(entry.id), which is not unfinished")
                    continue
                }
                let agrees: Bool
                switch (entry.state, jobs[index].phase) {
                case (.waiting, .waiting): agrees = true
                case (.blocked(let a), .blocked(let b)): agrees = a == b
                case (.delayed(let a), .delayed(let b)): agrees = a == b
                case (.running(let a), .running(let b)): agrees = a == b
                default: agrees = false
                }
                if !agrees {
                    violations.append("step \(steps): snapshot says \(entry.state), handle says \(jobs[index].phase)")
                }
            }
        }
    }

    struct Failure: Error {}

    @Test("invariants hold after every step of a random workload", arguments: StressSeeds.fixed(plusFresh: 20))
    func randomWorkload(seed: UInt64) {
        var simulation = Simulation(seed: seed)
        for _ in 0..<20_000 {
            simulation.step()
            if !simulation.violations.isEmpty { break }
        }
        simulation.drain()
        #expect(simulation.violations.isEmpty, "seed \(seed): \(simulation.violations.prefix(5))")
        #expect(simulation.machine.jobCount == 0, "seed \(seed): jobs left after shutdown")
        #expect(
            simulation.machine.startsPerInput == .max || simulation.maxConcurrentJobs == 1
                || simulation.continuations > 10,
            "seed \(seed): \(simulation.continuations) batches continued")
        let accepted = simulation.jobs.filter { $0.key != nil }
        let unresolved = accepted.filter { $0.resolutions != 1 }.map(\.spec.id)
        #expect(unresolved.isEmpty, "seed \(seed): not resolved exactly once: \(unresolved.prefix(5))")
        #expect(accepted.count > 1_000, "seed \(seed): too few jobs to mean anything")
        let started = accepted.filter { !$0.startedAttempts.isEmpty }.count
        #expect(started > 100, "seed \(seed): too few starts to mean anything")
        let chained = accepted.filter { !$0.spec.dependsOn.isEmpty && !$0.startedAttempts.isEmpty }.count
        let appended = accepted.filter { [.append, .appendOrReplace].contains($0.spec.onDuplicate) }.count
        let periods = accepted.map { $0.periodStarts.count }.reduce(0, +)
        let calendarRuns = accepted.map { $0.occurrencesBegun.count }.reduce(0, +)
        let catchUps = accepted.map(\.catchUps).reduce(0, +)
        let fileRuns = accepted.map(\.fileRuns).reduce(0, +)
        #expect(fileRuns > 5, "seed \(seed): \(fileRuns) file-triggered runs of \(simulation.fileChanges) changes")
        #expect(calendarRuns > 5, "seed \(seed): \(calendarRuns) calendar periods")
        // Rare events are floors of the fixed seeds only: a fresh seed may miss every window, or never
        // stop or fail a periodic run (seed 2167118123942747216 did neither), and a coverage floor that a
        // valid workload can miss is a flaky test, not a check.
        if StressSeeds.fixed.contains(seed) {
            #expect(catchUps > 0, "seed \(seed): \(calendarRuns) calendar periods, \(catchUps) catch-ups")
            #expect(
                simulation.periodicRequeues + simulation.periodicRetries > 0,
                "seed \(seed): no periodic run was requeued or retried")
        }
        #expect(
            simulation.relaxationsApplied > 10 && simulation.relaxedStarts > 0,
            "seed \(seed): \(simulation.relaxationsApplied) relaxations, \(simulation.relaxedStarts) relaxed starts")
        #expect(
            // Across random seeds the fewest seen were 9 dependents started (a cancelAll every ~30 steps
            // fails most chains), 559 appends and 19 periods; the floors leave room for that spread.
            chained > 2 && appended > 100 && periods > 5,
            "seed \(seed): \(chained) dependents started, \(appended) appends, \(periods) periods")
    }
}
