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
        switch trigger {
        case .submit:
            settle()
            let thread = Stamp.currentThread()
            let start = ContinuousClock.now
            gate.submit(job)
            await ended.take()
            return try stamp.sample(from: start, trigger: thread, scenario: scenario)
        case .open:
            gate.submit(job)
            settle()
            defer { gate.set(open: false) }
            if let driver {
                let times = Stamp()
                let done = driver.run {
                    times.mark()
                    gate.set(open: true)
                }
                await ended.take()
                await done.take()
                guard let start = times.instant else {
                    throw BenchmarkFailure(scenario: scenario, message: "the driver thread did not run")
                }
                return try stamp.sample(from: start, trigger: times.thread, scenario: scenario)
            }
            let thread = Stamp.currentThread()
            let start = ContinuousClock.now
            gate.set(open: true)
            await ended.take()
            return try stamp.sample(from: start, trigger: thread, scenario: scenario)
        }
    }
}
