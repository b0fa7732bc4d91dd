import Testing

@testable import SyncGateCore

/// A main thread a test plays by hand: work enqueued on it waits until the test drains the queue, and
/// `isCurrent` is true only while the test runs code "on" it.
final class FakeMainThread: Sendable {
    private struct State {
        var onMain = false
        var queue: [@Sendable () -> Void] = []
    }

    private let state = LockedState(State())

    var queue: MainThreadQueue {
        MainThreadQueue(
            isCurrent: { [state] in state.withLock { $0.onMain } },
            async: { [state] work in state.withLock { $0.queue.append(work) } })
    }

    /// How many blocks wait for the main thread.
    var pending: Int { state.withLock { $0.queue.count } }

    /// Runs `body` as the main thread.
    func run<T>(_ body: () -> T) -> T {
        state.withLock { $0.onMain = true }
        defer { state.withLock { $0.onMain = false } }
        return body()
    }

    /// Runs the enqueued blocks as the main thread, in order, until none is left.
    func drain() {
        while let work = state.withLock({ $0.queue.isEmpty ? nil : $0.queue.removeFirst() }) {
            run(work)
        }
    }
}

/// The battery that `UIDevice` would report, and the monitoring switch, as the main thread sees them.
final class FakeDevice: Sendable {
    let battery = LockedState(ApplePowerFacts.Battery.device(state: .unplugged, level: 0.4))
    let monitoring = LockedState(false)
    /// Every value the switch was set to, in order.
    let switches = LockedState<[Bool]>([])
    let reads = LockedState(0)
    private let mainThread: FakeMainThread

    init(mainThread: FakeMainThread) {
        self.mainThread = mainThread
    }

    /// A switch that, like `UIDevice`, may be flipped on the main thread only.
    func makeMonitoring() -> MainThreadMonitoring {
        MainThreadMonitoring { [self] enabled in
            #expect(mainThread.queue.isCurrent(), "the monitoring switch was flipped off the main thread")
            monitoring.withLock { $0 = enabled }
            switches.withLock { $0.append(enabled) }
        }
    }

    /// A reader of this device's battery over `monitoring`, which reads on the main thread only.
    func makeReader(monitoring: MainThreadMonitoring) -> MainThreadFacts<ApplePowerFacts.Battery> {
        MainThreadFacts(
            unknown: .device(state: .unknown, level: -1), mainThread: mainThread.queue, monitoring: monitoring,
            read: { [self] in
                #expect(mainThread.queue.isCurrent(), "UIDevice was read off the main thread")
                reads.withLock { $0 += 1 }
                return self.monitoring.withLock { $0 } ? battery.withLock { $0 } : .device(state: .unknown, level: -1)
            })
    }
}

/// A power reader built like the iOS adapter: Low Power Mode from anywhere, the battery through
/// ``MainThreadFacts``.
final class MainThreadPowerReader: PowerFactsReading {
    let facts: MainThreadFacts<ApplePowerFacts.Battery>

    init(_ facts: MainThreadFacts<ApplePowerFacts.Battery>) {
        self.facts = facts
    }

    var batteryOrigin: StatusOrigin { .uiDevice }

    func read() -> ApplePowerFacts {
        ApplePowerFacts(isLowPowerModeEnabled: false, battery: facts.current())
    }

    func startObserving(_ onChange: @escaping @Sendable () -> Void) { facts.start(onChange) }

    func stopObserving() { facts.stop() }
}

@Suite("Facts only the main thread may read, offered to every thread without waiting for it")
struct MainThreadFactsTests {
    private static let unknown = ApplePowerFacts.Battery.device(state: .unknown, level: -1)
    private static let unplugged = ApplePowerFacts.Battery.device(state: .unplugged, level: 0.4)

    @Test("off the main thread: the last-known facts, unknown until the main thread has read, never waiting")
    func offMainReadsLastKnown() {
        let main = FakeMainThread()
        let device = FakeDevice(mainThread: main)
        let reader = device.makeReader(monitoring: device.makeMonitoring())
        let changes = LockedState(0)

        reader.start { changes.withLock { $0 += 1 } }
        // The main thread has not run yet (it may be waiting for this thread): nothing was read or switched.
        #expect(reader.current() == Self.unknown)
        #expect(device.reads.withLock { $0 } == 0)
        #expect(device.monitoring.withLock { $0 } == false)
        #expect(main.pending == 1)

        main.drain()
        #expect(device.monitoring.withLock { $0 })
        #expect(changes.withLock { $0 } == 1, "the start reports a change once the main thread has read")
        #expect(reader.current() == Self.unplugged, "off the main thread: the facts the main thread read")

        device.battery.withLock { $0 = .device(state: .charging, level: 0.5) }
        #expect(reader.current() == Self.unplugged, "off the main thread, a later change shows only once read there")
        #expect(main.run { reader.current() } == .device(state: .charging, level: 0.5))
        #expect(reader.current() == .device(state: .charging, level: 0.5))
    }

    @Test("on the main thread: monitoring switched and facts read at once, no change reported")
    func onMainIsImmediate() {
        let main = FakeMainThread()
        let device = FakeDevice(mainThread: main)
        let reader = device.makeReader(monitoring: device.makeMonitoring())
        let changes = LockedState(0)

        main.run { reader.start { changes.withLock { $0 += 1 } } }
        #expect(main.pending == 0)
        #expect(device.monitoring.withLock { $0 })
        #expect(reader.current() == Self.unplugged)
        #expect(changes.withLock { $0 } == 0)

        main.run { reader.stop() }
        #expect(main.pending == 0)
        #expect(device.monitoring.withLock { $0 } == false)
    }

    @Test("a stop off the main thread switches monitoring off through the main queue")
    func stopOffMain() {
        let main = FakeMainThread()
        let device = FakeDevice(mainThread: main)
        let reader = device.makeReader(monitoring: device.makeMonitoring())
        main.run { reader.start {} }

        reader.stop()
        #expect(device.monitoring.withLock { $0 }, "not before the main thread runs")
        main.drain()
        #expect(device.monitoring.withLock { $0 } == false)
        #expect(device.switches.withLock { $0 } == [true, false])
    }

    @Test("a stop before the main thread ran the start: monitoring never left on, no change reported")
    func stopBeforeStartRan() {
        let main = FakeMainThread()
        let device = FakeDevice(mainThread: main)
        let reader = device.makeReader(monitoring: device.makeMonitoring())
        let changes = LockedState(0)

        reader.start { changes.withLock { $0 += 1 } }
        reader.stop()
        main.drain()
        #expect(device.monitoring.withLock { $0 } == false)
        #expect(changes.withLock { $0 } == 0)

        // The same with the stop on the main thread, before it drained the start.
        let other = device.makeReader(monitoring: device.makeMonitoring())
        other.start { changes.withLock { $0 += 1 } }
        main.run { other.stop() }
        main.drain()
        #expect(device.monitoring.withLock { $0 } == false)
        #expect(changes.withLock { $0 } == 0)
    }

    @Test("monitoring is process-wide: on while any reader observes")
    func sharedMonitoring() {
        let main = FakeMainThread()
        let device = FakeDevice(mainThread: main)
        let monitoring = device.makeMonitoring()
        let first = device.makeReader(monitoring: monitoring)
        let second = device.makeReader(monitoring: monitoring)

        first.start {}
        second.start {}
        main.drain()
        first.stop()
        main.drain()
        #expect(device.monitoring.withLock { $0 }, "the second reader still observes")
        #expect(second.current() == Self.unplugged)
        second.stop()
        main.drain()
        #expect(device.monitoring.withLock { $0 } == false)
        #expect(device.switches.withLock { $0 } == [true, false])
    }

    @Test("a follower created off the main thread publishes unknown, then the facts once the main thread read")
    func followerPublishesWhenMainDelivers() {
        let main = FakeMainThread()
        let device = FakeDevice(mainThread: main)
        let follower = ApplePowerFollower(
            reader: MainThreadPowerReader(device.makeReader(monitoring: device.makeMonitoring())))
        defer { follower.stop() }

        // Unknown does not block: on external power, level unknown.
        #expect(follower.broadcast.value == PowerStatus(isLowPowerModeEnabled: false, isOnExternalPower: true))
        main.drain()
        #expect(
            follower.broadcast.value
                == PowerStatus(isLowPowerModeEnabled: false, isOnExternalPower: false, batteryLevel: 0.4))
    }
}
