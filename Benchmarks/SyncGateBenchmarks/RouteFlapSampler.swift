#if os(Linux)
    import Foundation
    import Glibc
    import SyncGate
    import SyncGateWire

    /// The default route of the observed namespace, added and deleted by hand, and the loop of scenarios 10
    /// and 13 over it: route appears → job body, against a bare socket woken by the same message.
    ///
    /// Built on the thread that has entered the namespace, and used only there.
    final class RouteFlapSampler {
        private let control: NetlinkSocket
        private let index: Int32
        private var sequence: UInt32 = 0
        private let environment: SyncEnvironment
        private let scheduler: SyncScheduler
        private let scenario: String

        /// Opens a control socket in the calling thread's namespace for the default route through `v0`.
        init(environment: SyncEnvironment, scheduler: SyncScheduler, scenario: String) throws {
            self.environment = environment
            self.scheduler = scheduler
            self.scenario = scenario
            control = try NetlinkSocket(groups: 0, receiveBufferSize: nil, bufferSize: 16 * 1024)
            index = Int32(if_nametoindex("v0"))
            guard index > 0 else {
                control.close()
                throw BenchmarkFailure(scenario: scenario, message: "the veth end is missing")
            }
        }

        deinit {
            control.close()
        }

        /// Adds or deletes the default route; returns once the kernel has acknowledged it.
        func route(_ present: Bool) throws {
            sequence += 1
            try KernelEventMeasurement.setDefaultRoute(control, present: present, index: index, sequence: sequence)
        }

        /// Waits (polling, at most 5 s) until the environment reads the network as `connected`.
        func awaitConnectivity(_ connected: Bool) throws {
            let deadline = ContinuousClock.now + .seconds(5)
            while environment.status.connectivity.isConnected != connected {
                guard ContinuousClock.now < deadline else {
                    throw BenchmarkFailure(
                        scenario: scenario,
                        message: "the environment did not become \(connected ? "" : "dis")connected in 5 s")
                }
                usleep(100)
            }
        }

        /// Deletes the route and waits until the environment has seen it go.
        func removeRoute() throws {
            try route(false)
            try awaitConnectivity(false)
        }

        /// Flaps the route `warmup + samples` times; each time one job that requires `.network` waits, and
        /// the latency from just before the route's `sendto()` to the job body's first instruction is taken
        /// with a bare socket's wake-up → resumed task on the same message. Returns the last `samples` of
        /// each, in nanoseconds; checks that every job ran exactly once, after its route.
        ///
        /// The bare socket is `listener` when given (one opened before the environment's observer, so that
        /// the kernel wakes it after the observer's), else one opened now (woken before it).
        func sample(warmup: Int, samples: Int, listener given: RawNetlinkListener? = nil) throws -> (
            job: [Double], raw: [Double]
        ) {
            var job: [Double] = []
            var raw: [Double] = []
            let listener = try given ?? RawNetlinkListener(watching: index)
            listener.start()
            defer { listener.stop() }
            for flap in 0..<(warmup + samples) {
                let stamp = Stamp()
                let ran = DispatchSemaphore(value: 0)
                _ = try scheduler.submit(
                    SyncJob(requires: .network) { _ in
                        stamp.mark()
                        ran.signal()
                    })
                let baseline = Stamp()
                let armed = DispatchSemaphore(value: 0)
                let resumed = DispatchSemaphore(value: 0)
                Task {
                    await withCheckedContinuation { continuation in
                        listener.arm(for: .defaultRoute(present: true), continuation)
                        armed.signal()
                    }
                    baseline.mark()
                    resumed.signal()
                }
                armed.wait()
                usleep(200)  // both sides asleep before the event
                let start = ContinuousClock.now
                try route(true)
                guard ran.wait(timeout: .now() + 5) == .success else {
                    throw failure("the job of flap \(flap) did not start within 5 s of its route")
                }
                guard resumed.wait(timeout: .now() + 5) == .success else {
                    throw failure("the bare socket did not resume its task within 5 s of flap \(flap)")
                }
                let jobLatency = try stamp.latency(from: start, scenario: scenario)
                let rawLatency = try baseline.latency(from: start, scenario: scenario)
                guard jobLatency > .zero else {
                    throw failure(
                        "the job of flap \(flap) started \(Duration.zero - jobLatency) before its route was added: "
                            + "it ran while the environment said disconnected")
                }
                if flap >= warmup {
                    job.append(jobLatency.nanoseconds)
                    raw.append(rawLatency.nanoseconds)
                }
                usleep(2_000)  // let trailing events (IPv6 routes, ACKs) settle before the next flap
                try removeRoute()
                guard stamp.marks == 1 else { throw failure("the job of flap \(flap) ran \(stamp.marks) times") }
            }
            return (job, raw)
        }

        private func failure(_ message: String) -> BenchmarkFailure {
            BenchmarkFailure(scenario: scenario, message: message)
        }
    }
#endif
