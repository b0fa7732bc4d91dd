#if os(Linux)
    import Foundation
    import SyncGate
    import SyncGateLinux
    import SyncGateTesting
    import Testing

    /// The resource observer on fixture trees and the injected clock: PSI triggers while calm, `avg10` on
    /// the timer while under pressure, thermal zones on the timer while needed, and nothing read while
    /// nobody needs either.
    @Suite("ResourceObserver", .timeLimit(.minutes(1)))
    struct ResourceObserverTests {
        static func observer(_ fixture: ResourceFixture, clock: ManualClock) -> ResourceObserver {
            ResourceObserver(
                pressureDirectory: fixture.pressureDirectory, thermalRoot: fixture.thermalRoot,
                pressureCheckInterval: .seconds(5), thermalCheckInterval: .seconds(30), clock: clock)
        }

        /// Advances the clock by ten minutes and checks that `count` did not move: nothing was read.
        static func expectNoReads(
            _ count: () -> Int, clock: ManualClock, sourceLocation: SourceLocation = #_sourceLocation
        ) {
            let before = count()
            clock.advance(by: .seconds(600))
            #expect(count() == before, "read while nobody needs it", sourceLocation: sourceLocation)
        }

        /// Waits until the environment's combined status has a resources part for which `condition` holds
        /// (the observer's own stream may deliver before the environment has taken the value in).
        static func until(_ environment: SyncEnvironment, _ condition: (ResourceStatus) -> Bool) async {
            for await status in environment.statusStream where condition(status.resources) { return }
        }

        @Test("calm, a trigger fires, under pressure until avg10 falls, calm again; no reads once nobody needs it")
        func calmPressuredCalm() async throws {
            let fixture = try ResourceFixture(pressure: (1, 0, 0))
            let clock = ManualClock()
            let observer = Self.observer(fixture, clock: clock)
            #expect(observer.pressureReadCount == 1)  // the first value, read at init
            #expect(observer.status.pressure == PressureLevels(cpu: 1, io: 0, memory: 0))
            #expect(observer.provenance.pressure == .psi)
            let environment = SyncEnvironment(resources: observer, clock: clock)
            #expect(!observer.areTriggersArmed)

            environment.demand.retain(.notUnderPressure)
            #expect(observer.pressureReadCount == 2, "read at once when needed")
            #expect(observer.areTriggersArmed)
            #expect(clock.sleeperCount == 0, "no timer while calm")
            #expect(environment.status.satisfies(.notUnderPressure))

            try fixture.setPressure(cpu: 80, io: 0, memory: 0)
            #expect(observer.simulateTrigger())
            await Self.until(environment) { $0.isUnderPressure }
            #expect(!environment.status.satisfies(.notUnderPressure))
            #expect(!observer.areTriggersArmed)

            await clock.waitForSleepers(1)
            clock.advance(by: .seconds(5))
            // Still above the threshold: read, then a new timer, armed only after the read is published,
            // so whoever sees the timer waiting sees the read in the environment too.
            await clock.waitForSleepers(1)
            #expect(observer.pressureReadCount == 3)
            #expect(environment.status.resources.pressure?.cpu == 80)
            #expect(environment.status.resources.isUnderPressure)

            try fixture.setPressure(cpu: 49.99, io: 24.99, memory: 9.99)
            clock.advance(by: .seconds(5))
            await Self.until(environment) { !$0.isUnderPressure }
            #expect(observer.pressureReadCount == 4)
            #expect(observer.areTriggersArmed, "re-armed once calm")
            #expect(clock.sleeperCount == 0)
            #expect(environment.status.satisfies(.notUnderPressure))

            environment.demand.release(.notUnderPressure)
            #expect(!observer.areTriggersArmed)
            #expect(!observer.simulateTrigger())
            Self.expectNoReads({ observer.pressureReadCount }, clock: clock)
            #expect(clock.sleeperCount == 0)
        }

        @Test("a trigger's signal counts only when the stall totals bear it out")
        func unfoundedSignalIsDismissed() async throws {
            let fixture = try ResourceFixture(pressure: (1, 0, 0))
            let watch = try PressureTriggerWatch.arm(directory: fixture.pressureDirectory, thresholds: .default).get()
            let (events, continuation) = AsyncStream.makeStream(of: PressureTriggerWatch.Event.self)
            #expect(watch.start { continuation.yield($0) })
            var iterator = events.makeAsyncIterator()
            // No stall behind the signal (as the kernel gives a freshly armed trigger): the thread waits on.
            watch.simulateSignal()
            #expect(await iterator.next() == .dismissed)
            // Ten seconds of CPU stall behind the next one: it fires.
            try fixture.setPressure(cpu: 1, io: 0, memory: 0, cpuTotal: 1234 + 10_000_000)
            watch.simulateSignal()
            #expect(await iterator.next() == .fired)
        }

        @Test("a signal the stall totals bear out puts the observer under pressure")
        func foundedSignalIsPressure() async throws {
            let fixture = try ResourceFixture(pressure: (1, 0, 0))
            let clock = ManualClock()
            let observer = Self.observer(fixture, clock: clock)
            let environment = SyncEnvironment(resources: observer, clock: clock)
            environment.demand.retain(.notUnderPressure)
            #expect(observer.areTriggersArmed)
            try fixture.setPressure(cpu: 1, io: 0, memory: 0, cpuTotal: 1234 + 10_000_000)
            #expect(observer.simulateSignal())
            await Self.until(environment) { $0.isUnderPressure }
            #expect(!observer.areTriggersArmed)
            environment.demand.release(.notUnderPressure)
        }

        @Test("a job waits while a resource is at its threshold, and starts when all fall below")
        func jobWaitsForCalm() async throws {
            let fixture = try ResourceFixture(pressure: (0, 0, 10))
            let clock = ManualClock()
            let observer = Self.observer(fixture, clock: clock)
            #expect(observer.status.isUnderPressure, "memory at its 10 % threshold")
            let environment = SyncEnvironment(resources: observer, clock: clock)
            let scheduler = SyncScheduler(environment: environment, clock: clock)
            let handle = try scheduler.submit(SyncJob(requires: .notUnderPressure) { _ in })
            #expect(handle.state == .waiting(unmet: .notUnderPressure, conditions: []))
            #expect(!observer.areTriggersArmed)
            try fixture.setPressure(cpu: 0, io: 0, memory: 2)
            await clock.waitForSleepers(1)
            clock.advance(by: .seconds(5))
            #expect(try await handle.outcome() == .succeeded)
            // The job resolved: nobody needs pressure, so the triggers go and nothing is read.
            #expect(!environment.demand.isNeeded(.notUnderPressure))
            #expect(!observer.areTriggersArmed)
            Self.expectNoReads({ observer.pressureReadCount }, clock: clock)
        }

        @Test("without PSI files pressure never blocks, and its provenance says unavailable")
        func unavailablePressure() async throws {
            let fixture = try ResourceFixture(pressure: nil)
            let clock = ManualClock()
            let observer = Self.observer(fixture, clock: clock)
            #expect(observer.status.pressure == nil)
            #expect(observer.provenance.pressure == .unavailable)
            #expect(observer.provenance.notes.contains { $0.hasPrefix("pressure: cannot read") })
            let environment = SyncEnvironment(resources: observer, clock: clock)
            let scheduler = SyncScheduler(environment: environment, clock: clock)
            let handle = try scheduler.submit(SyncJob(requires: .notUnderPressure) { _ in })
            #expect(try await handle.outcome() == .succeeded)
            #expect(!observer.areTriggersArmed)
            #expect(clock.sleeperCount == 0)
        }

        @Test("heat: read only while needed, a hot zone holds a job back until it cools")
        func heat() async throws {
            let hot = ResourceFixture.Zone(type: "acpitz", milliCelsius: 96_000, trips: [("passive", 95_000)])
            let fixture = try ResourceFixture(zones: [hot])
            let clock = ManualClock()
            let observer = Self.observer(fixture, clock: clock)
            #expect(observer.thermalReadCount == 1)
            #expect(observer.status.isHot)
            #expect(observer.provenance.heat == .thermalZones)
            let environment = SyncEnvironment(resources: observer, clock: clock)
            let scheduler = SyncScheduler(environment: environment, clock: clock)
            Self.expectNoReads({ observer.thermalReadCount }, clock: clock)

            let handle = try scheduler.submit(SyncJob(requires: .notHot) { _ in })
            #expect(observer.thermalReadCount == 2)
            #expect(handle.state == .waiting(unmet: .notHot, conditions: []))
            await clock.waitForSleepers(1)
            clock.advance(by: .seconds(30))
            await clock.waitForSleepers(1)
            #expect(observer.thermalReadCount == 3)
            #expect(handle.state == .waiting(unmet: .notHot, conditions: []))

            try fixture.setZone(0, .init(type: "acpitz", milliCelsius: 70_000, trips: [("passive", 95_000)]))
            clock.advance(by: .seconds(30))
            #expect(try await handle.outcome() == .succeeded)
            #expect(
                environment.status.resources.thermal == ThermalReading(zone: "acpitz", celsius: 70, passiveCelsius: 95))
            #expect(!environment.demand.isNeeded(.notHot))
            #expect(!observer.isTimerArmed)
            Self.expectNoReads({ observer.thermalReadCount }, clock: clock)
        }

        @Test("heat without a passive trip point never blocks, and the zones are read only once per demand")
        func unavailableHeat() async throws {
            let fixture = try ResourceFixture(zones: [
                .init(type: "acpitz", milliCelsius: 120_000, trips: [("critical", 105_000)])
            ])
            let clock = ManualClock()
            let observer = Self.observer(fixture, clock: clock)
            #expect(!observer.status.isHot)
            #expect(observer.provenance.heat == .unavailable)
            #expect(observer.provenance.notes.contains { $0.hasPrefix("heat: no thermal zone") })
            let environment = SyncEnvironment(resources: observer, clock: clock)
            environment.demand.retain(.notHot)
            #expect(environment.status.satisfies(.notHot))
            #expect(observer.thermalReadCount == 2)
            clock.advance(by: .seconds(600))
            #expect(observer.thermalReadCount == 2)
            environment.demand.release(.notHot)
        }
    }

    /// PSI on this machine's kernel: `/proc/pressure` read, and triggers armed and waited for.
    @Suite(
        "PSI on this kernel",
        .enabled(
            if: FileManager.default.fileExists(atPath: "/proc/pressure/cpu"),
            "skipped: no /proc/pressure (a kernel without PSI, or booted with psi=0)"),
        .timeLimit(.minutes(1)))
    struct PressureKernelTests {
        @Test("the observer reads avg10 of every resource")
        func reads() {
            let observer = ResourceObserver(clock: ManualClock())
            #expect(observer.provenance.pressure == .psi, "\(observer.provenance)")
            let levels = observer.status.pressure
            #expect(levels?.cpu != nil && levels?.io != nil && levels?.memory != nil)
        }

        @Test("a trigger is armed on each file and its thread ends when stopped")
        func armsTriggers() async throws {
            let watch = try PressureTriggerWatch.arm(directory: "/proc/pressure", thresholds: .default).get()
            let (events, continuation) = AsyncStream.makeStream(of: PressureTriggerWatch.Event.self)
            #expect(watch.start { continuation.yield($0) })
            watch.stop()
            var ending: PressureTriggerWatch.Event?
            // A fresh trigger's signal may be dismissed first; on a busy machine a trigger may fire before
            // the stop arrives. Either way the thread waited in poll on the armed files and ended.
            for await event in events where event != .dismissed {
                ending = event
                break
            }
            #expect(ending == .stopped || ending == .fired)
        }

        @Test("a trigger the kernel refuses is an error naming the file")
        func refusedTrigger() throws {
            // A stall longer than the window is refused (EINVAL); the threshold cannot ask for one, so the
            // refusal is provoked with a file that takes no trigger at all.
            let result = PressureTriggerWatch.arm(directory: "/proc/self", thresholds: .default)
            guard case .failure(let error) = result else {
                Issue.record("armed a trigger on /proc/self/cpu")
                return
            }
            #expect(error.path == "/proc/self/cpu")
            #expect(error.description.hasPrefix("open /proc/self/cpu failed: "))
        }
    }
#endif
