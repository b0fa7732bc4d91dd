/// The floor of scenarios 1 and 3 (``SkeletonGate``), timed the way their SyncGate probes are: from just
/// before the gate opens (or the job is submitted to an open gate) to the first instruction of the job's
/// body, the measuring task then awaiting the job's end as theirs awaits its outcome.
final class SkeletonGateProbe: LatencyProbe {
    /// What starts the job.
    enum Trigger {
        /// A waiting job; the gate opens (scenario 1), from the measuring task or from a dedicated thread.
        case open(fromThread: Bool)
        /// The gate is open; the job is submitted (scenario 3).
        case submit
    }

    private let scenario: String
    private let trigger: Trigger
    private let gate = SkeletonGate()
    private let driver: ThreadDriver?

    init(scenario: String, trigger: Trigger) {
        self.scenario = scenario
        self.trigger = trigger
        if case .open(fromThread: true) = trigger { driver = ThreadDriver() } else { driver = nil }
        if case .submit = trigger { gate.set(open: true) }
    }

    deinit {
        driver?.stop()
    }

    func measure() async throws -> LatencySample {
        let stamp = Stamp()
        let ended = Mailbox<Void>()
        let job: SkeletonGate.Operation = {
            stamp.mark()
            ended.put(())
        }
        let gate = gate
        let fire: @Sendable () -> Void
        switch trigger {
        case .submit:
            fire = { gate.submit(job) }
        case .open:
            gate.submit(job)
            fire = { gate.set(open: true) }
        }
        settle()
        defer { if case .open = trigger { gate.set(open: false) } }
        if let driver {
            let (start, thread, _) = try await driver.timed(fire, scenario: scenario) { await ended.take() }
            return try stamp.sample(from: start, trigger: thread, scenario: scenario)
        }
        let thread = Stamp.currentThread()
        let start = ContinuousClock.now
        fire()
        await ended.take()
        return try stamp.sample(from: start, trigger: thread, scenario: scenario)
    }
}
