#if os(Linux)
    import Foundation
    import Glibc
    import SyncGate
    import SyncGateWire
#endif

extension Scenario {
    /// Scenario 10: kernel event → job body, through the whole public path (observer, environment,
    /// scheduler) in a network namespace; then every thread's wake-ups while the scheduler holds waiting
    /// jobs and nothing changes.
    static func runKernelJob(_ sizes: BenchmarkOptions.Sizes) async throws -> ScenarioResult {
        var result = ScenarioResult(
            name: Scenario.kernelJob.name, number: 10,
            title: "kernel event → job body starts (route appears in a namespace, debounce 0)",
            measures: "the harness makes scenario 8's two network namespaces and, on a thread inside the first, "
                + "builds SyncEnvironment(connectivity: ConnectivityObserver(debounce 0), power: PowerObserver()) "
                + "(what SyncEnvironment(monitoring: .all) builds on Linux, with the debounce at 0) and a "
                + "SyncScheduler on it. Each sample: the default route is absent and one job that requires "
                + ".network waits; the clock starts just before the sendto() of the RTM_NEWROUTE that adds the "
                + "default route and stops at the first instruction of the job's body (netlink delivery, the "
                + "observer's wake-up and lookups, the environment, the scheduler's decision, the job's start). "
                + "Baseline, same flap: a bare netlink socket on its own thread wakes on the same RTM_NEWROUTE and "
                + "resumes a CheckedContinuation; stopped at the resumed task's first instruction. The kernel wakes "
                + "the socket subscribed last first: blocks of flaps (two per round), each with an observer, "
                + "environment and scheduler of its own, alternate which side that is, and each placement is also "
                + "shown on its own. Then, with "
                + "\(sizes.idleJobs) jobs waiting for the network, the voluntary context switches "
                + "(/proc/self/task/*/status, voluntary_ctxt_switches) of every thread of the process except the "
                + "measuring one over \(sizes.idleSeconds) s with nothing changing, and the process's ru_nvcsw "
                + "(getrusage, which keeps the switches of threads that exited) minus the measuring thread's"
        )
        #if os(Linux)
            if let reason = NetworkNamespacePair.unavailableReason {
                result.skipped = "skipped: " + reason
                return result
            }
            let measured: KernelJobMeasurement = try await withCheckedThrowingContinuation { continuation in
                let thread = Thread {
                    continuation.resume(with: Result { try KernelJobMeasurement(sizes: sizes) })
                }
                thread.start()
            }
            await measured.scheduler.shutdown(gracePeriod: .seconds(5))
            try measured.ledger.verifyExactlyOnce(scenario: Scenario.kernelJob.name)
            result.latencies.append(
                LatencyComparison(
                    subject: "route appears → job body", samples: measured.job,
                    baseline: "bare socket wake-up → resumed task", baselineSamples: measured.raw,
                    goals: [.init(percentile: "p50", atMost: 1.3), .init(percentile: "p99.9", atMost: 3.0)]))
            for (placement, series) in [
                ("bare woken first", measured.bareFirst), ("bare woken second", measured.bareSecond),
            ] where !series.job.isEmpty {
                result.latencies.append(
                    LatencyComparison(
                        subject: "route → job body, \(placement)", samples: series.job,
                        baseline: "bare socket wake-up → resumed task", baselineSamples: series.raw, goals: []))
            }
            result.figures.append(
                Figure(
                    "route appearances the observer published from the route's announcement, before its lookup",
                    Double(measured.earlyGains), unit: "of \(measured.job.count + measured.warmups)"))
            let idle = sizes.idleSeconds
            let total = measured.idleWakeups.reduce(0) { $0 + $1.count }
            result.figures.append(
                Figure(
                    "wake-ups of the process in \(idle) s idle, \(sizes.idleJobs) jobs waiting (getrusage)",
                    Double(measured.idleProcessWakeups), unit: "wake-ups", goal: "0",
                    goalMet: measured.idleProcessWakeups == 0))
            result.figures.append(
                Figure(
                    "same, summed over the threads alive at the end (/proc/self/task)", Double(total),
                    unit: "wake-ups"))
            result.figures.append(
                Figure(
                    "threads that exited during the idle period", Double(measured.idleExitedThreads), unit: "threads"))
            for thread in measured.idleWakeups {
                result.notes.append("idle wake-ups: thread \(thread.tid) \"\(thread.name)\": \(thread.count)")
            }
            result.checks.append(
                "each of the \(measured.job.count + measured.warmups) measured jobs ran exactly once, after its "
                    + "route appeared")
            result.checks.append(
                "none of the \(sizes.idleJobs) idle jobs ran while the route was absent; then, released, each ran "
                    + "exactly once")
        #else
            result.skipped = "skipped: network namespaces exist only on Linux"
        #endif
        return result
    }
}

#if os(Linux)
    /// Scenario 10's measurements, taken on one dedicated thread that moves itself into the namespace.
    struct KernelJobMeasurement: @unchecked Sendable {
        var job: [Double] = []
        var raw: [Double] = []
        /// The samples of the blocks where the bare socket was woken first, then second.
        var bareFirst: (job: [Double], raw: [Double]) = ([], [])
        var bareSecond: (job: [Double], raw: [Double]) = ([], [])
        /// Flaps before the measured ones, over all blocks.
        var warmups = 0
        /// Statuses the observer published from a route's announcement, before its lookup.
        var earlyGains = 0
        var idleWakeups: [(tid: Int, name: String, count: Int)] = []
        /// The process's voluntary switches in the idle period (getrusage), the measuring thread's excluded.
        var idleProcessWakeups = 0
        /// Threads that existed at the start of the idle period and not at its end.
        var idleExitedThreads = 0
        /// The scheduler, to be shut down by the caller.
        let scheduler: SyncScheduler
        /// The idle jobs' ledger, to be verified after the shutdown.
        let ledger: RunLedger

        private static let scenario = Scenario.kernelJob.name

        init(sizes: BenchmarkOptions.Sizes) throws {
            let pair = try NetworkNamespacePair()
            defer { pair.destroy() }
            let homeDescriptor = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC)
            defer {
                if homeDescriptor >= 0 {
                    try? NetworkNamespacePair.enter(path: "/proc/self/fd/\(homeDescriptor)")
                    close(homeDescriptor)
                }
            }
            try NetworkNamespacePair.enter(pair.observed)
            // As in scenario 8, blocks of flaps (two per round) alternate which of the two sockets the kernel
            // wakes first: each block builds its own observer, environment and scheduler, after the bare
            // socket or before it.
            let index = Int32(if_nametoindex("v0"))
            guard index > 0 else { throw Self.failure("the veth end is missing") }
            ledger = RunLedger(count: sizes.idleJobs)
            let blocks = 2 * LatencyComparison.defaultRounds
            var remaining = sizes.kernelJobSamples
            var block = 0
            var current: (observer: ConnectivityObserver, scheduler: SyncScheduler, flaps: RouteFlapSampler)?
            while remaining > 0 {
                let count = min(max(1, sizes.kernelJobSamples / blocks), remaining)
                remaining -= count
                if let previous = current.take() { try Self.retire(previous.scheduler) }
                // Released by the last holder of the environment, the previous observer stops its thread.
                let deadline = ContinuousClock.now + .seconds(5)
                while !ThreadCensus.threads(named: "sg-netlink").isEmpty {
                    guard ContinuousClock.now < deadline else {
                        throw Self.failure("the previous block's observer thread still runs 5 s after its shutdown")
                    }
                    usleep(1_000)
                }
                let bareWokenSecond = block % 2 == 1
                block += 1
                let early = bareWokenSecond ? try RawNetlinkListener(watching: index) : nil
                let observer = try ConnectivityObserver(
                    configuration: ConnectivityReaderConfiguration(debounce: .zero))
                let environment = SyncEnvironment(connectivity: observer, power: PowerObserver())
                let scheduler = SyncScheduler(environment: environment)
                let flaps = try RouteFlapSampler(
                    environment: environment, scheduler: scheduler, scenario: Self.scenario)
                // The route is present at first; each block's flaps end with it removed.
                if block == 1 { try flaps.removeRoute() } else { try flaps.awaitConnectivity(false) }
                // The bare socket stops (it polls every 50 ms) before the idle period.
                let sampled = try flaps.sample(
                    warmup: block == 1 ? sizes.kernelJobWarmup : 2, samples: count, listener: early)
                job += sampled.job
                raw += sampled.raw
                if bareWokenSecond {
                    bareSecond.job += sampled.job
                    bareSecond.raw += sampled.raw
                } else {
                    bareFirst.job += sampled.job
                    bareFirst.raw += sampled.raw
                }
                earlyGains += observer.counters.earlyGains
                warmups += block == 1 ? sizes.kernelJobWarmup : 2
                current = (observer, scheduler, flaps)
            }
            guard let (_, scheduler, flaps) = current else { throw Self.failure("no samples were asked for") }
            self.scheduler = scheduler

            for job in 0..<sizes.idleJobs {
                let ledger = ledger
                _ = try scheduler.submit(SyncJob(requires: .network) { _ in ledger.record(job) })
            }
            usleep(500_000)
            let me = ThreadCensus.currentThreadID()
            let before = ThreadCensus.census()
            let processBefore = Self.voluntarySwitches(RUSAGE_SELF)
            let mineBefore = Self.voluntarySwitches(__rusage_who(rawValue: 1))  // RUSAGE_THREAD
            sleep(UInt32(sizes.idleSeconds))
            let mineAfter = Self.voluntarySwitches(__rusage_who(rawValue: 1))  // RUSAGE_THREAD
            let processAfter = Self.voluntarySwitches(RUSAGE_SELF)
            let after = ThreadCensus.census()
            idleWakeups = ThreadCensus.wakeups(from: before, to: after, excluding: [me])
            idleProcessWakeups = (processAfter - processBefore) - (mineAfter - mineBefore)
            idleExitedThreads = Set(before.keys).subtracting(after.keys).count
            guard ledger.recorded == 0 else {
                throw Self.failure("\(ledger.recorded) idle jobs ran while the route was absent")
            }
            try flaps.route(true)
            let deadline = ContinuousClock.now + sizes.patience
            while ledger.recorded < sizes.idleJobs {
                guard ContinuousClock.now < deadline else {
                    throw Self.failure("only \(ledger.recorded) of \(sizes.idleJobs) idle jobs ran after the route")
                }
                usleep(1_000)
            }
        }

        /// Shuts a block's scheduler down (waiting on this thread), so that its environment and observer
        /// (whose thread then ends) can go.
        private static func retire(_ scheduler: SyncScheduler) throws {
            let done = DispatchSemaphore(value: 0)
            Task {
                await scheduler.shutdown(gracePeriod: .seconds(5))
                done.signal()
            }
            guard done.wait(timeout: .now() + 10) == .success else {
                throw failure("a block's scheduler did not shut down within 10 s")
            }
        }

        /// `ru_nvcsw` of `getrusage(who)`: the process's (every thread, exited ones included) or the caller's.
        private static func voluntarySwitches(_ who: __rusage_who) -> Int {
            var usage = rusage()
            _ = getrusage(__rusage_who_t(who.rawValue), &usage)
            return usage.ru_nvcsw
        }

        private static func failure(_ message: String) -> BenchmarkFailure {
            BenchmarkFailure(scenario: scenario, message: message)
        }
    }
#endif
