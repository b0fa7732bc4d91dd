import Testing

@testable import SyncGateCore

/// Synchronous tests of the scheduler's pure state machine, rule by rule (docs/ARCHITECTURE.md §4).
@Suite("SchedulerStateMachine", .timeLimit(.minutes(1)))
struct SchedulerStateMachineTests {
    typealias Machine = SchedulerStateMachine<String>

    static let online = SyncEnvironmentStatus(connectivity: .connected(via: .wifi), account: .available)
    static let hotspot = SyncEnvironmentStatus(
        connectivity: .connected(via: .wifi, isExpensive: true),
        account: .available
    )
    static let offline = SyncEnvironmentStatus(account: .available)

    struct Failure: Error, Equatable {}

    /// A machine plus the bookkeeping a test needs: the clock offset and submission helpers.
    struct Harness {
        var machine: Machine
        var now: Duration = .zero
        var keys: [String: Machine.Key] = [:]
        var lastArmed: Duration?

        init(max: Int = 4, status: SyncEnvironmentStatus = SchedulerStateMachineTests.online, batch: Int = .max) {
            machine = Machine(maxConcurrentJobs: max, status: status, startsPerInput: batch)
        }

        @discardableResult
        mutating func submit(_ id: String, _ configure: (inout SyncJob) -> Void = { _ in }) -> [Machine.Action] {
            var job = SyncJob(id: id) { _ in }
            configure(&job)
            switch machine.submit(job.spec, payload: id, now: now) {
            case .accepted(let key, let actions):
                keys[id] = key
                return record(actions)
            case .existing(let existing):
                Issue.record("\(id) was not accepted: \(existing) exists")
                return []
            case .rejected(let error):
                Issue.record("\(id) was rejected: \(error)")
                return []
            }
        }

        mutating func status(_ status: SyncEnvironmentStatus) -> [Machine.Action] {
            record(machine.statusChanged(status, now: now))
        }

        @discardableResult
        mutating func finish(_ id: String, _ result: Result<Void, any Error> = .success(()), random: Double = 0.5)
            -> [Machine.Action]
        {
            guard let key = keys[id], let job = machine.jobs[key] else {
                Issue.record("\(id) is not unfinished")
                return []
            }
            return record(
                machine.attemptFinished(key, attempt: job.attempt, result: result, now: now, random: { random }))
        }

        /// Moves time forward; fires the timer if it was armed at or before the new time.
        mutating func advance(_ duration: Duration) -> [Machine.Action] {
            now += duration
            guard let armed = lastArmed, armed <= now else { return [] }
            lastArmed = nil
            return record(machine.timerFired(now: now))
        }

        mutating func cancel(_ id: String) -> [Machine.Action] {
            record(machine.cancel(id: id, now: now))
        }

        /// Notes the timer armings among `actions` (what the shell would do with them) and returns them.
        mutating func record(_ actions: [Machine.Action]) -> [Machine.Action] {
            for action in actions {
                switch action {
                case .armTimer(let at): lastArmed = at
                case .disarmTimer: lastArmed = nil
                default: continue
                }
            }
            return actions
        }

        func phase(_ id: String) -> Machine.Phase? {
            keys[id].flatMap { machine.jobs[$0]?.phase }
        }

        var runningIDs: Set<String> {
            Set(machine.running.compactMap { machine.jobs[$0]?.payload })
        }
    }

    // MARK: - Rule 1: runnable

    @Test("a job starts only when its requirements and conditions hold")
    func gatedByRequirementsAndConditions() {
        var harness = Harness(status: Self.hotspot)
        let submitted = harness.submit("upload") {
            $0.requirements = .largeTransfer
            $0.conditions = ["selected"]
        }
        #expect(submitted.started.isEmpty)
        #expect(harness.status(Self.online).started.isEmpty)
        let withCondition = with(Self.online) { $0.conditions = ["selected"] }
        #expect(harness.status(withCondition).started == ["upload"])
    }

    @Test("waiting jobs hold no slot")
    func waitingJobsHoldNoSlot() {
        var harness = Harness(max: 1, status: Self.offline)
        for index in 0..<5 { harness.submit("blocked-\(index)") }
        let actions = harness.submit("local") { $0.requirements = [] }
        #expect(actions.started == ["local"])
    }

    @Test("a job never starts on a status that does not satisfy it, and starts on the newest status")
    func newestStatus() {
        var harness = Harness(max: 1, status: Self.offline)
        harness.submit("a")
        #expect(harness.status(Self.online).started == ["a"])
        // The shell starts an attempt on the machine's status when it performs the start.
        #expect(harness.machine.status == Self.online)
    }

    // MARK: - Rule 2: order

    @Test("higher priority first, then submission order")
    func priorityThenFIFO() {
        var harness = Harness(max: 1, status: Self.offline)
        harness.submit("low-1") { $0.priority = .low }
        harness.submit("normal-1")
        harness.submit("high-1") { $0.priority = .high }
        harness.submit("normal-2")
        harness.submit("high-2") { $0.priority = .high }
        var order = harness.status(Self.online).started
        while let last = order.last, order.count < 5 {
            order += harness.finish(last).started
        }
        #expect(order == ["high-1", "high-2", "normal-1", "normal-2", "low-1"])
    }

    /// A release larger than one batch, with slots for all but two of the jobs.
    static let batchCases: [(batch: Int, slots: Int)] = [(1, 8), (3, 8), (4, 8), (7, 8), (10, 8), (3, 20)]

    @Test("a release in batches starts the same jobs in the same order as one without batches", arguments: batchCases)
    func batchedRelease(batch: Int, slots: Int) {
        func release(batch: Int) -> (order: [String], batches: [Int], running: Set<String>) {
            var harness = Harness(max: slots, status: Self.offline, batch: batch)
            for index in 0..<(slots + 2) {
                let priority: SyncJobPriority = [.low, .normal, .high][index % 3]
                harness.submit("job-\(index)") { $0.priority = priority }
            }
            var first = harness.status(Self.online).started
            var batches = [first.count]
            while harness.machine.hasMoreToStart {
                let next = harness.machine.continueStarting(now: harness.now).started
                batches.append(next.count)
                first += next
            }
            #expect(harness.machine.running.count <= slots)
            #expect(harness.machine.continueStarting(now: harness.now).isEmpty)
            return (first, batches, harness.runningIDs)
        }
        let whole = release(batch: .max)
        let batched = release(batch: batch)
        #expect(batched.order == whole.order)
        #expect(batched.running == whole.running)
        #expect(batched.batches.allSatisfy { $0 <= batch })
        #expect(whole.order.count == slots)
    }

    @Test(
        "a job submitted between two batches waits for the next batch and takes its place there by priority",
        arguments: [SyncJobPriority.high, .normal, .low])
    func submissionBetweenBatches(priority: SyncJobPriority) {
        var harness = Harness(max: 10, status: Self.offline, batch: 2)
        for index in 0..<4 { harness.submit("normal-\(index)") }
        #expect(harness.status(Self.online).started == ["normal-0", "normal-1"])
        #expect(harness.machine.hasMoreToStart)
        #expect(harness.submit("new") { $0.priority = priority }.started.isEmpty)
        var rest: [String] = []
        while harness.machine.hasMoreToStart { rest += harness.machine.continueStarting(now: harness.now).started }
        let expected: [String] =
            switch priority {
            case .high: ["new", "normal-2", "normal-3"]
            case .normal: ["normal-2", "normal-3", "new"]
            case .low: ["normal-2", "normal-3", "new"]
            }
        #expect(rest == expected)
    }

    // MARK: - Rule 3: cost

    @Test("with 100 000 blocked jobs, unblocking one other job examines O(1) jobs")
    func costIndependentOfBlockedJobs() {
        var harness = Harness(status: Self.offline)
        for index in 0..<100_000 {
            harness.submit("blocked-\(index)") { $0.requirements = [.network, .externalPower] }
        }
        harness.submit("target") { $0.conditions = ["go"] }
        let unplugged = with(Self.online) { $0.power.isOnExternalPower = false }
        #expect(harness.status(unplugged).isEmpty)
        let before = harness.machine.jobsExamined
        let actions = harness.status(with(unplugged) { $0.conditions = ["go"] })
        #expect(actions.started == ["target"])
        #expect(harness.machine.jobsExamined - before <= 3)
        #expect(harness.machine.jobCount == 100_001)
    }

    @Test("a bucket emptied and reused for other requirements holds only its new jobs, and starts them when they hold")
    func reusedBucket() {
        let unplugged = with(Self.online) { $0.power.isOnExternalPower = false }
        var harness = Harness(max: 1, status: unplugged)
        #expect(harness.submit("first") { $0.requirements = [] }.started == ["first"])
        // Waits for the slot alone in its bucket, which empties when it starts and is kept for reuse.
        #expect(harness.submit("network") { $0.requirements = .network }.started.isEmpty)
        #expect(harness.finish("first").started == ["network"])
        // The kept bucket now holds a job that waits for external power, which the status lacks.
        #expect(harness.submit("power") { $0.requirements = .externalPower }.started.isEmpty)
        #expect(harness.submit("second network") { $0.requirements = .network }.started.isEmpty)
        #expect(harness.finish("network").started == ["second network"])
        #expect(harness.finish("second network").started.isEmpty)
        #expect(harness.phase("power") == .waiting)
        #expect(harness.status(Self.online).started == ["power"])
        #expect(harness.finish("power").isEmpty == false)
        #expect(harness.machine.jobCount == 0)
    }

    // MARK: - Rule 4: start deadline

    @Test("a job not started within its start deadline expires and is not retried")
    func startDeadline() {
        var harness = Harness(status: Self.offline)
        harness.submit("a") {
            $0.startDeadline = .seconds(10)
            $0.retry = .fixed(delay: .seconds(1), maxAttempts: 3)
        }
        #expect(harness.advance(.seconds(9)).isEmpty)
        let actions = harness.advance(.seconds(1))
        #expect(actions.outcomes == ["a: expired"])
        #expect(actions.events.contains(.expired(id: "a")))
        #expect(harness.machine.jobCount == 0)
    }

    @Test("a deadline of zero: the job starts as it is submitted, or expires at once (offline, or behind its group)")
    func zeroDeadline() {
        var harness = Harness(max: 2)
        #expect(harness.submit("now") { $0.startDeadline = .zero }.started == ["now"])
        harness.submit("first") { $0.serialGroup = "g" }
        #expect(
            harness.submit("behind") {
                $0.serialGroup = "g"
                $0.startDeadline = .zero
            }.outcomes == ["behind: expired"])
        var offline = Harness(status: Self.offline)
        #expect(offline.submit("later") { $0.startDeadline = .zero }.outcomes == ["later: expired"])
        #expect(offline.machine.jobCount == 0)
        #expect(harness.finish("now").outcomes == ["now: succeeded"])
    }

    @Test("a started job does not expire")
    func startedJobDoesNotExpire() {
        var harness = Harness()
        harness.submit("a") { $0.startDeadline = .seconds(10) }
        #expect(harness.advance(.seconds(20)).isEmpty)
        #expect(harness.finish("a").outcomes == ["a: succeeded"])
    }

    // MARK: - Rule 5: run timeout

    @Test("a run timeout cancels the attempt, which fails with runTimedOut and follows the retry policy")
    func runTimeout() {
        var harness = Harness()
        harness.submit("a") {
            $0.runTimeout = .seconds(5)
            $0.retry = .fixed(delay: .seconds(2), maxAttempts: 2)
        }
        let fired = harness.advance(.seconds(5))
        #expect(fired.cancelled == [harness.keys["a"]])
        #expect(harness.machine.snapshot(now: harness.now).job("a")?.isPastRunTimeout == true)
        #expect(harness.machine.running.count == 1)
        let retried = harness.finish("a", .failure(CancellationError()))
        #expect(retried.events.contains(.retryScheduled(id: "a", attempt: 2, delay: .seconds(2))))
        #expect(harness.advance(.seconds(2)).started == ["a"])
        _ = harness.advance(.seconds(5))
        let failed = harness.finish("a", .success(()))
        #expect(failed.outcomes == ["a: succeeded"])
    }

    @Test("an attempt that times out and throws fails with runTimedOut when no attempt remains")
    func runTimeoutFails() {
        var harness = Harness()
        harness.submit("a") { $0.runTimeout = .seconds(1) }
        _ = harness.advance(.seconds(1))
        let actions = harness.finish("a", .failure(CancellationError()))
        #expect(actions.outcomes == ["a: failed: the attempt ran past its run timeout"])
    }

    // MARK: - Rule 6: cancellation

    @Test("a waiting job resolves cancelled at once; a running one when it returns, whatever it threw")
    func cancellation() {
        var harness = Harness(max: 1)
        harness.submit("running")
        harness.submit("waiting")
        #expect(harness.cancel("waiting").outcomes == ["waiting: cancelled"])
        let cancelling = harness.cancel("running")
        #expect(cancelling.cancelled == [harness.keys["running"]])
        #expect(cancelling.outcomes.isEmpty)
        #expect(harness.cancel("running").cancelled.isEmpty)
        #expect(harness.finish("running", .success(())).outcomes == ["running: cancelled"])
    }

    @Test("cancel by tag and cancel all")
    func cancelByTag() {
        var harness = Harness(status: Self.offline)
        harness.submit("a") { $0.tags = ["photos"] }
        harness.submit("b") { $0.tags = ["photos", "large"] }
        harness.submit("c")
        #expect(harness.machine.cancel(tag: "photos", now: .zero).outcomes == ["a: cancelled", "b: cancelled"])
        #expect(harness.machine.cancelAll(now: .zero).outcomes == ["c: cancelled"])
        #expect(harness.machine.jobCount == 0)
    }

    // MARK: - Rule 7: retry

    @Test("exponential backoff with jitter, capped, then waiting for requirements again")
    func exponentialBackoff() {
        var harness = Harness()
        harness.submit("a") {
            $0.retry = .exponential(
                initial: .seconds(1), multiplier: 3, maxDelay: .seconds(5), maxAttempts: 4, jitter: 0.5)
        }
        let first = harness.finish("a", .failure(Failure()), random: 0)
        #expect(first.events.contains(.retryScheduled(id: "a", attempt: 2, delay: .milliseconds(500))))
        #expect(harness.phase("a") == .delayed)
        _ = harness.status(Self.offline)
        #expect(harness.advance(.milliseconds(500)).started.isEmpty)
        #expect(harness.phase("a") == .waiting)
        #expect(harness.status(Self.online).started == ["a"])
        let second = harness.finish("a", .failure(Failure()), random: 1)
        #expect(second.events.contains(.retryScheduled(id: "a", attempt: 3, delay: .seconds(4.5))))
        _ = harness.advance(.seconds(4.5))
        let third = harness.finish("a", .failure(Failure()), random: 0.5)
        #expect(third.events.contains(.retryScheduled(id: "a", attempt: 4, delay: .seconds(5))))
        _ = harness.advance(.seconds(5))
        #expect(harness.finish("a", .failure(Failure())).outcomes == ["a: failed: Failure()"])
    }

    @Test("doNotRetry fails at once with the underlying error")
    func doNotRetry() {
        var harness = Harness()
        harness.submit("a") { $0.retry = .fixed(delay: .seconds(1), maxAttempts: 5) }
        let actions = harness.finish("a", .failure(SyncJobError.doNotRetry(Failure())))
        #expect(actions.outcomes == ["a: failed: Failure()"])
    }

    @Test("resetWhenRequirementsReturn ends a backoff when the requirements went and came back")
    func resetBackoff() {
        var harness = Harness()
        harness.submit("a") {
            $0.retry = .exponential(initial: .seconds(60), maxAttempts: 3, jitter: 0, resetWhenRequirementsReturn: true)
        }
        _ = harness.finish("a", .failure(Failure()))
        #expect(harness.phase("a") == .delayed)
        #expect(harness.status(with(Self.online) { $0.conditions = ["noise"] }).isEmpty)
        #expect(harness.phase("a") == .delayed)
        _ = harness.status(Self.offline)
        #expect(harness.status(Self.online).started == ["a"])
    }

    @Test("without resetWhenRequirementsReturn the backoff runs its course")
    func noResetBackoff() {
        var harness = Harness()
        harness.submit("a") { $0.retry = .fixed(delay: .seconds(60), maxAttempts: 3) }
        _ = harness.finish("a", .failure(Failure()))
        _ = harness.status(Self.offline)
        #expect(harness.status(Self.online).started.isEmpty)
        #expect(harness.advance(.seconds(60)).started == ["a"])
    }

    // MARK: - Rule 8: requirements lost while running

    @Test("cancelAndRequeue cancels the attempt and requeues it without consuming an attempt")
    func requeueOnLoss() {
        var harness = Harness()
        harness.submit("a") { $0.requirements = .largeTransfer }
        let lost = harness.status(Self.hotspot)
        #expect(lost.cancelled == [harness.keys["a"]])
        let requeued = harness.finish("a", .failure(CancellationError()))
        #expect(requeued.events.contains(.requeued(id: "a", lost: .unmetered)))
        #expect(harness.phase("a") == .waiting)
        let restarted = harness.status(Self.online)
        #expect(restarted.started == ["a"])
        #expect(restarted.events.contains(.started(id: "a", attempt: 1)))
    }

    @Test("an attempt that ignores the loss and succeeds has succeeded")
    func lossThenSuccess() {
        var harness = Harness()
        harness.submit("a")
        _ = harness.status(Self.offline)
        #expect(harness.finish("a", .success(())).outcomes == ["a: succeeded"])
    }

    @Test("keepRunning lets the attempt finish")
    func keepRunning() {
        var harness = Harness()
        harness.submit("a") { $0.onRequirementsLost = .keepRunning }
        #expect(harness.status(Self.offline).cancelled.isEmpty)
        #expect(harness.finish("a").outcomes == ["a: succeeded"])
    }

    // MARK: - Rule 9: uniqueness

    @Test("keepExisting returns the existing job")
    func keepExisting() {
        var harness = Harness(status: Self.offline)
        harness.submit("first") { $0.uniqueKey = "refresh" }
        let job = SyncJob(id: "second", uniqueKey: "refresh") { _ in }
        guard case .existing(let existing) = harness.machine.submit(job.spec, payload: "second", now: .zero) else {
            Issue.record("expected the existing job")
            return
        }
        #expect(existing == "first")
        #expect(harness.machine.jobCount == 1)
    }

    @Test("replace cancels a waiting job and enqueues the new one")
    func replaceWaiting() {
        var harness = Harness(status: Self.offline)
        harness.submit("first") { $0.uniqueKey = "refresh" }
        let actions = harness.submit("second") {
            $0.uniqueKey = "refresh"
            $0.onDuplicate = .replace
        }
        #expect(actions.outcomes == ["first: cancelled"])
        #expect(harness.status(Self.online).started == ["second"])
    }

    @Test("replace of a running job: the new one starts only after the old attempt returns")
    func replaceRunning() {
        var harness = Harness()
        harness.submit("first") { $0.uniqueKey = "refresh" }
        let actions = harness.submit("second") {
            $0.uniqueKey = "refresh"
            $0.onDuplicate = .replace
        }
        #expect(actions.cancelled == [harness.keys["first"]])
        #expect(actions.started.isEmpty)
        #expect(harness.machine.snapshot(now: harness.now).job("second")?.isWaitingForTurn == true)
        let finished = harness.finish("first")
        #expect(finished.outcomes == ["first: cancelled"])
        #expect(finished.started == ["second"])
    }

    @Test("replacing a parked replacement still waits for the running job of the key")
    func replaceTwiceWhileRunning() {
        var harness = Harness()
        harness.submit("a") { $0.uniqueKey = "k" }
        harness.submit("b") {
            $0.uniqueKey = "k"
            $0.onDuplicate = .replace
        }
        let third = harness.submit("c") {
            $0.uniqueKey = "k"
            $0.onDuplicate = .replace
        }
        #expect(third.outcomes == ["b: cancelled"])
        #expect(third.started.isEmpty)
        #expect(harness.runningIDs == ["a"])
        let finished = harness.finish("a", .failure(CancellationError()))
        #expect(finished.outcomes == ["a: cancelled"])
        #expect(finished.started == ["c"])
    }

    @Test("a replace that cancels a serial group's head starts the group's next job when a slot is free")
    func replaceReleasesSerialSuccessor() {
        // Found by the model stress's liveness check: the next job of the group was made to wait for a
        // slot, but nothing started it while the slot stayed free.
        var harness = Harness()
        harness.submit("a") {
            $0.uniqueKey = "k"
            $0.serialGroup = "g"
            $0.conditions = ["never"]
        }
        harness.submit("b") { $0.serialGroup = "g" }
        #expect(harness.phase("b") == .parked)
        let replaced = harness.submit("c") {
            $0.uniqueKey = "k"
            $0.onDuplicate = .replace
            $0.conditions = ["never"]
        }
        #expect(replaced.outcomes == ["a: cancelled"])
        #expect(replaced.started == ["b"])
    }

    @Test("a job cancelled while running does not count as the existing job of its key")
    func cancelledJobIsNotExisting() {
        var harness = Harness()
        harness.submit("a") { $0.uniqueKey = "k" }
        _ = harness.cancel("a")
        let actions = harness.submit("b") { $0.uniqueKey = "k" }
        #expect(actions.started.isEmpty)
        #expect(harness.finish("a").started == ["b"])
    }

    // MARK: - Serial groups

    @Test("serial groups run one at a time in submission order")
    func serialGroup() {
        var harness = Harness(max: 4)
        harness.submit("g1") { $0.serialGroup = "db" }
        harness.submit("g2") {
            $0.serialGroup = "db"
            $0.priority = .high
        }
        harness.submit("g3") { $0.serialGroup = "db" }
        harness.submit("other")
        #expect(harness.runningIDs == ["g1", "other"])
        #expect(harness.finish("g1").started == ["g2"])
        #expect(harness.cancel("g3").outcomes == ["g3: cancelled"])
        #expect(harness.finish("g2").started.isEmpty)
    }

    @Test("a serial group's head blocks the group while its requirements are unmet")
    func serialGroupHeadBlocks() {
        var harness = Harness()
        harness.submit("g1") {
            $0.serialGroup = "db"
            $0.requirements = .largeTransfer
        }
        harness.submit("g2") {
            $0.serialGroup = "db"
            $0.requirements = []
        }
        _ = harness.status(Self.hotspot)
        _ = harness.finish("g1", .failure(CancellationError()))
        #expect(harness.runningIDs.isEmpty)
        #expect(harness.status(Self.online).started == ["g1"])
    }

    // MARK: - Delay and slots

    @Test("an initial delay holds the job, then it starts")
    func initialDelay() {
        var harness = Harness()
        let actions = harness.submit("a") { $0.delay = .seconds(3) }
        #expect(actions.started.isEmpty)
        #expect(harness.phase("a") == .delayed)
        #expect(harness.advance(.seconds(3)).started == ["a"])
    }

    @Test("maxConcurrentJobs is never exceeded")
    func slots() {
        var harness = Harness(max: 2, status: Self.offline)
        for index in 0..<6 { harness.submit("j\(index)") }
        #expect(harness.status(Self.online).started == ["j0", "j1"])
        #expect(harness.finish("j0").started == ["j2"])
        #expect(harness.machine.running.count == 2)
    }

    // MARK: - Rule 11: shutdown

    @Test(
        "shutdown cancels waiting jobs, lets running ones finish without retry (one that fails with attempts left is cancelled), and rejects submissions"
    )
    func shutdown() {
        var harness = Harness(max: 2)
        harness.submit("running") { $0.retry = .fixed(delay: .seconds(1), maxAttempts: 3) }
        harness.submit("last") { $0.retry = .none }
        harness.submit("waiting")
        let actions = harness.machine.shutdown(now: .zero)
        #expect(actions.outcomes == ["waiting: cancelled"])
        let failed = harness.finish("running", .failure(Failure()))
        #expect(failed.outcomes == ["running: cancelled"])
        #expect(failed.events.contains(.retryScheduled(id: "running", attempt: 2, delay: .seconds(1))))
        #expect(harness.finish("last", .failure(Failure())).outcomes == ["last: failed: Failure()"])
        let job = SyncJob(id: "late") { _ in }
        guard case .rejected(.shutDown) = harness.machine.submit(job.spec, payload: "late", now: .zero) else {
            Issue.record("expected shutDown")
            return
        }
    }

    // MARK: - Rule 12: bad input

    @Test("a duplicate id of an unfinished job is rejected and nothing changes")
    func duplicateID() {
        var harness = Harness(status: Self.offline)
        harness.submit("a")
        let job = SyncJob(id: "a") { _ in }
        guard case .rejected(let error) = harness.machine.submit(job.spec, payload: "a2", now: .zero) else {
            Issue.record("expected a rejection")
            return
        }
        #expect(
            error
                == .invalidJob(
                    SyncJobRefusal(
                        jobID: "a", field: "id", value: "\"a\"", relatedJobs: ["a"],
                        reason: "id \"a\" is already used by an unfinished job")))
        #expect(harness.machine.jobCount == 1)
        _ = harness.cancel("a")
        harness.submit("a")
        #expect(harness.machine.jobCount == 1)
    }
}

extension [SchedulerStateMachine<String>.Action] {
    var started: [String] {
        compactMap { if case .start(let job, _) = $0 { job.payload } else { nil } }
    }
    var cancelled: [UInt64?] {
        compactMap { if case .cancelAttempt(let key) = $0 { key } else { nil } }
    }
    var outcomes: [String] {
        compactMap { if case .resolve(let job, let outcome) = $0 { "\(job.payload): \(outcome)" } else { nil } }
    }
    var events: [SyncSchedulerEvent] {
        compactMap { if case .emit(let event, _) = $0 { event } else { nil } }
    }
}

extension SchedulerStateMachineTests {
    @Test("with 10 000 jobs on one list and 10 000 on another, a change of network examines only the jobs it starts")
    func allowlistCost() {
        let cafe = with(Self.online) {
            $0.connectivity = .connected(via: .wifi).with(network: SyncNetwork(ssid: "Cafe"))
        }
        var harness = Harness(max: 1, status: cafe)
        for index in 0..<10_000 {
            harness.submit("home-\(index)") { $0.options.allowedNetworks = SyncNetworkAllowlist([.ssid("Home")]) }
            harness.submit("office-\(index)") { $0.options.allowedNetworks = SyncNetworkAllowlist([.ssid("Office")]) }
        }
        let before = harness.machine.jobsExamined
        let elsewhere = with(Self.online) {
            $0.connectivity = .connected(via: .wifi).with(network: SyncNetwork(ssid: "Bar"))
        }
        #expect(harness.status(elsewhere).isEmpty)
        #expect(harness.machine.jobsExamined == before)
        let home = with(Self.online) {
            $0.connectivity = .connected(via: .wifi).with(network: SyncNetwork(ssid: "Home"))
        }
        let actions = harness.status(home)
        #expect(actions.started == ["home-0"])
        #expect(harness.machine.jobsExamined - before <= 3)
    }
}
