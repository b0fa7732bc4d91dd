import SyncGateTesting
import Testing

@testable import SyncGateCore

/// Relaxations (``SyncJobRelaxation``): requirements dropped or replaced once a job has waited long
/// enough, on the pure state machine and through a ``SyncScheduler`` on a ``ManualClock``.
@Suite("Relaxations", .timeLimit(.minutes(1)))
struct RelaxationTests {
    typealias Harness = SchedulerStateMachineTests.Harness

    static let day = Duration.seconds(86_400)
    static let hotspot = SchedulerStateMachineTests.hotspot
    static let online = SchedulerStateMachineTests.online
    static let onBattery = with(SchedulerStateMachineTests.online) {
        $0.power = PowerStatus(isOnExternalPower: false, batteryLevel: 0.1)
    }
    static let batteryFine = with(SchedulerStateMachineTests.online) {
        $0.power = PowerStatus(isOnExternalPower: false, batteryLevel: 0.8)
    }

    /// A job that needs `[.network, .unmetered]` and drops `unmetered` after `after`, its wait begun at
    /// `waitStart` from its submission.
    static func backup(after: Duration, waitStart: Duration? = nil) -> (inout SyncJob) -> Void {
        {
            $0.requirements = [.network, .unmetered]
            $0.relaxations = [.drop(.unmetered, after: after)]
            $0.relaxationWaitStart = waitStart
        }
    }

    // MARK: - The state machine

    @Test("a dropped requirement is waited for until its instant, then the job starts at that instant")
    func dropStartsAtTheInstant() {
        var harness = Harness(status: Self.hotspot)
        let submitted = harness.submit("backup", Self.backup(after: Self.day * 3))
        #expect(submitted.started.isEmpty)
        #expect(harness.lastArmed == Self.day * 3)
        #expect(harness.advance(Self.day * 3 - .seconds(1)).isEmpty)
        let relaxed = harness.advance(.seconds(1))
        #expect(relaxed.events.contains(.relaxed(id: "backup", relaxation: .drop(.unmetered, after: Self.day * 3))))
        #expect(relaxed.started == ["backup"])
        let job = harness.keys["backup"].flatMap { harness.machine.jobs[$0] }
        #expect(job?.requirements == .network)
        #expect(job.map(harness.machine.appliedRelaxations(of:)) == [.drop(.unmetered, after: Self.day * 3)])
    }

    @Test("a replaced requirement whose weaker one does not hold yet keeps the job waiting until it does")
    func replacementNotHoldingYet() {
        var harness = Harness(status: Self.onBattery)
        harness.submit("index") {
            $0.requirements = [.network, .externalPower]
            $0.relaxations = [.replace(.externalPower, with: .batteryNotLow, after: .seconds(12 * 3_600))]
        }
        let relaxed = harness.advance(.seconds(12 * 3_600))
        #expect(
            relaxed.events == [
                .relaxed(
                    id: "index", relaxation: .replace(.externalPower, with: .batteryNotLow, after: .seconds(43_200)))
            ])
        #expect(relaxed.started.isEmpty)
        #expect(harness.phase("index") == .waiting)
        let state = harness.keys["index"].flatMap { harness.machine.jobs[$0] }.map(harness.machine.state(of:))
        #expect(state == .waiting(unmet: .batteryNotLow, conditions: []))
        #expect(harness.status(Self.batteryFine).started == ["index"])
    }

    @Test("a relaxation that falls due while the attempt runs changes nothing for it")
    func dueWhileRunningIsIrrelevant() {
        var harness = Harness(status: Self.online)
        let submitted = harness.submit("backup", Self.backup(after: .seconds(60)))
        #expect(submitted.started == ["backup"])
        // The attempt started before the instant: its timer is dead, and nothing is armed for it.
        #expect(harness.advance(.seconds(120)).isEmpty)
        #expect(harness.machine.armedTimer == nil)
        let finished = harness.finish("backup")
        #expect(finished.outcomes == ["backup: succeeded"])
        #expect(!finished.events.contains { if case .relaxed = $0 { true } else { false } })
    }

    @Test("a job requeued after its instant passed during its attempt waits on the relaxed requirements")
    func requeuedAfterTheInstantIsRelaxed() {
        var harness = Harness(status: Self.online)
        harness.submit("backup", Self.backup(after: .seconds(60)))
        _ = harness.advance(.seconds(120))
        let lost = harness.status(Self.hotspot)
        #expect(lost.cancelled.count == 1)
        let requeued = harness.finish("backup", .failure(CancellationError()))
        #expect(requeued.events.contains(.relaxed(id: "backup", relaxation: .drop(.unmetered, after: .seconds(60)))))
        #expect(requeued.started == ["backup"])
    }

    @Test("a job cancelled before its instant never relaxes, and leaves no timer armed")
    func cancelBeforeTheInstant() {
        var harness = Harness(status: Self.hotspot)
        harness.submit("backup", Self.backup(after: .seconds(60)))
        #expect(harness.lastArmed == .seconds(60))
        #expect(harness.cancel("backup").outcomes == ["backup: cancelled"])
        #expect(harness.machine.armedTimer == nil)
        #expect(harness.advance(.seconds(60)).isEmpty)
    }

    @Test("a condition is dropped after its wait")
    func conditionDropped() {
        var harness = Harness(status: Self.online)
        harness.submit("sync") {
            $0.conditions = ["on-campus"]
            $0.relaxations = [.drop(SyncCondition("on-campus"), after: .seconds(30))]
        }
        #expect(harness.phase("sync") == .waiting)
        #expect(harness.advance(.seconds(30)).started == ["sync"])
    }

    @Test("each period of a periodic job waits again with its full requirements, from its window's opening")
    func periodicWaitStartsAnew() {
        let hour = Duration.seconds(3_600)
        var harness = Harness(status: Self.hotspot)
        harness.submit("daily") {
            $0.requirements = [.network, .unmetered]
            $0.period = SyncJobPeriod(every: Self.day, flex: hour * 12)
            $0.relaxations = [.drop(.unmetered, after: hour)]
        }
        // The first window opens after 12 h; the relaxation comes an hour after that, not after submission.
        #expect(harness.phase("daily") == .delayed)
        #expect(harness.advance(hour * 12).started.isEmpty)
        #expect(harness.phase("daily") == .waiting)
        #expect(harness.advance(hour - .seconds(1)).started.isEmpty)
        #expect(harness.advance(.seconds(1)).started == ["daily"])
        // The next period begins where the first ended (at 24 h); its window opens at 36 h, unrelaxed.
        #expect(harness.finish("daily").started.isEmpty)
        #expect(harness.phase("daily") == .delayed)
        #expect(harness.advance(hour * 23 - .seconds(1)).started.isEmpty)
        #expect(harness.phase("daily") == .delayed)
        #expect(harness.advance(.seconds(1)).started.isEmpty)
        #expect(harness.phase("daily") == .waiting)
        let job = harness.keys["daily"].flatMap { harness.machine.jobs[$0] }
        #expect(job?.requirements == [.network, .unmetered])
        #expect(harness.advance(hour - .seconds(1)).started.isEmpty)
        #expect(harness.advance(.seconds(1)).started == ["daily"])
    }

    @Test("a restored job's wait counts from before the restart; an instant passed while down relaxes at once")
    func restoredWaitStart() {
        var harness = Harness(status: Self.hotspot)
        harness.submit("late", Self.backup(after: .seconds(60), waitStart: .seconds(-90)))
        #expect(harness.runningIDs == ["late"])
        harness.submit("partial", Self.backup(after: .seconds(60), waitStart: .seconds(-45)))
        #expect(harness.lastArmed == .seconds(15))
        #expect(harness.advance(.seconds(15)).started == ["partial"])
    }

    @Test("statuses say what relaxes and when, and descriptions show it")
    func statusesAndDescriptions() {
        var harness = Harness(status: Self.hotspot)
        harness.submit("backup", Self.backup(after: Self.day * 2 + .seconds(4 * 3_600)))
        _ = harness.advance(.seconds(3_600))
        let snapshot = harness.machine.snapshot(now: harness.now)
        let job = snapshot.job("backup")
        #expect(job?.relaxations.first?.isApplied == false)
        #expect(job?.relaxations.first?.relaxesAt == Self.day * 2 + .seconds(14_400))
        #expect(job?.relaxations.first?.remaining == Self.day * 2 + .seconds(10_800))
        #expect(job?.summary == "backup: waiting for [unmetered] (relaxes: unmetered dropped in 2d 3h)")
        let info = harness.machine.jobs(matching: SyncJobQuery(), now: harness.now).first
        #expect(info?.relaxations == job?.relaxations)
        #expect(info?.description == "backup: waiting for [unmetered] (relaxes: unmetered dropped in 2d 3h)")
    }

    static let invalid: [(SyncJobOptions, String)] = [
        (SyncJobOptions(requires: .network, relaxations: [.drop(.unmetered, after: .seconds(1))]), "relaxations"),
        (
            SyncJobOptions(requires: .largeTransfer, relaxations: [.drop(.largeTransfer, after: .seconds(1))]),
            "relaxations"
        ),
        (SyncJobOptions(requires: .largeTransfer, relaxations: [.drop(.unmetered, after: .zero)]), "relaxations"),
        (
            SyncJobOptions(
                requires: .largeTransfer,
                relaxations: [.drop(.unmetered, after: .seconds(1)), .drop(.unmetered, after: .seconds(2))]),
            "relaxations"
        ),
        (
            SyncJobOptions(
                requires: .largeTransfer, relaxations: [.replace(.unmetered, with: .largeTransfer, after: .seconds(1))]),
            "relaxations"
        ),
        (SyncJobOptions(relaxations: [.drop(SyncCondition("absent"), after: .seconds(1))]), "relaxations"),
        (
            SyncJobOptions(
                requires: .largeTransfer,
                relaxations: [.replace(.unmetered, with: .storageNotLow, after: .seconds(1))]),
            "relaxations"
        ),
        (manyConditionsRelaxed(SyncJobOptions.maximumRelaxations + 1), "relaxations"),
    ]

    /// A job waiting on `count` conditions, each dropped after its own wait.
    static func manyConditionsRelaxed(_ count: Int) -> SyncJobOptions {
        let conditions = (0..<count).map { SyncCondition("c\($0)") }
        return SyncJobOptions(
            conditions: Set(conditions),
            relaxations: conditions.enumerated().map { .drop($0.element, after: .seconds($0.offset + 1)) })
    }

    @Test("as many relaxations as the bound allows are accepted; one more is refused")
    func relaxationBound() {
        #expect(Self.manyConditionsRelaxed(SyncJobOptions.maximumRelaxations).validationError == nil)
        #expect(
            Self.manyConditionsRelaxed(SyncJobOptions.maximumRelaxations + 1).validationError?.field == "relaxations")
    }

    @Test("relaxations that do not fit the job are refused, naming the field and the value", arguments: invalid)
    func invalidRelaxations(options: SyncJobOptions, field: String) {
        let refusal = options.validationError
        #expect(refusal?.field == field)
        #expect(refusal?.value?.isEmpty == false)
    }

    static let formats: [(Duration, String)] = [
        (.seconds(3 * 86_400), "3d"), (.seconds(2 * 86_400 + 3 * 3_600 + 59), "2d 3h"), (.seconds(12 * 3_600), "12h"),
        (.seconds(330), "5m 30s"), (.milliseconds(1), "1s"), (.zero, "0s"),
        (.seconds(Int64.max), "106751991167300d 15h"), (.seconds(Int64.max) + .milliseconds(1), "106751991167300d 15h"),
        (.seconds(Int64.max) * 4, "106751991167300d 15h"), (.seconds(-5), "0s"), (.seconds(-Int64.max) * 2, "0s"),
    ]

    @Test("durations read in their two largest units", arguments: formats)
    func durationFormat(duration: Duration, text: String) {
        #expect(SyncJobRelaxation.format(duration) == text)
    }

    // MARK: - Through the scheduler, on a ManualClock

    @Test("the body learns which requirements held at its start; the handle, events and queries show the relaxation")
    func contextAndViews() async throws {
        let (clock, manual, scheduler) = try ManualSchedulerSetup.make()
        manual.setConnectivity(.connected(via: .wifi, isExpensive: true))
        let events = scheduler.events
        let seen = LockedState<[(SyncRequirements, SyncRequirements, [SyncJobRelaxation])]>([])
        let relaxation = SyncJobRelaxation.drop(.unmetered, after: .seconds(3 * 86_400))
        var job = SyncJob(id: "backup", requires: [.network, .unmetered]) { context in
            seen.withLock { $0.append((context.requirements, context.appliedRequirements, context.relaxations)) }
        }
        job.relaxations = [relaxation]
        let handle = try scheduler.submit(job)
        await clock.waitForSleepers(1)
        #expect(handle.description == "backup: waiting for [unmetered] (relaxes: unmetered dropped in 3d)")
        #expect(handle.relaxations.map(\.remaining) == [.seconds(3 * 86_400)])
        #expect(scheduler.job(id: "backup")?.relaxations.first?.isApplied == false)
        clock.advance(by: .seconds(3 * 86_400 - 1))
        #expect(handle.relaxations.map(\.remaining) == [.seconds(1)])
        clock.advance(by: .seconds(1))
        #expect(try await handle.outcome() == .succeeded)
        let recorded = seen.withLock { $0 }
        #expect(recorded.map(\.0) == [[.network, .unmetered]])
        #expect(recorded.map(\.1) == [.network])
        #expect(recorded.map(\.2) == [[relaxation]])
        var iterator = events.makeAsyncIterator()
        var names: [SyncSchedulerEvent] = []
        while let event = await iterator.next() {
            names.append(event)
            if event == .succeeded(id: "backup") { break }
        }
        #expect(
            names == [
                .submitted(id: "backup"), .relaxed(id: "backup", relaxation: relaxation),
                .started(id: "backup", attempt: 1), .succeeded(id: "backup"),
            ])
    }

    @Test("a job whose requirements hold at once starts on them all, with no relaxation in its context")
    func contextWithoutRelaxation() async throws {
        let (_, _, scheduler) = try ManualSchedulerSetup.make()
        let seen = LockedState<[SyncRequirements]>([])
        var job = SyncJob(id: "backup", requires: [.network, .unmetered]) { context in
            seen.withLock { $0.append(context.appliedRequirements) }
            #expect(context.relaxations.isEmpty)
        }
        job.relaxations = [.drop(.unmetered, after: .seconds(60))]
        #expect(try await scheduler.submit(job).outcome() == .succeeded)
        #expect(seen.withLock { $0 } == [[.network, .unmetered]])
    }

    @Test("a cancel before the relax instant ends the job; the instant passing later starts nothing")
    func cancelThroughTheScheduler() async throws {
        let (clock, manual, scheduler) = try ManualSchedulerSetup.make()
        manual.setConnectivity(.connected(via: .wifi, isExpensive: true))
        let body = ControlledOperation()
        var job = SyncJob(id: "backup", requires: [.network, .unmetered], operation: body.operation)
        job.relaxations = [.drop(.unmetered, after: .seconds(60))]
        let handle = try scheduler.submit(job)
        await clock.waitForSleepers(1)
        handle.cancel()
        #expect(try await handle.outcome() == .cancelled)
        clock.advance(by: .seconds(60))
        #expect(body.starts.value == 0)
        #expect(handle.relaxations.isEmpty)
    }
}
