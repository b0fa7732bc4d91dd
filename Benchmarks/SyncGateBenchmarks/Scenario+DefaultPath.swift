#if os(Linux)
    import Foundation
    import Glibc
    import SyncGate
    import SyncGateWire
#endif

extension Scenario {
    /// Scenario 13: route appears → job body, as shipped: `SyncEnvironment(monitoring: .all)` with its
    /// default configuration; then the same route → `syncgate wait --require network` exits, the tool run
    /// as a child process.
    static func runDefaultPath(_ sizes: BenchmarkOptions.Sizes) async throws -> ScenarioResult {
        var result = ScenarioResult(
            name: Scenario.defaultPath.name, number: 13,
            title: "route appears → job body, as shipped (default configuration), and → `syncgate wait` exits",
            measures: "scenario 10's namespaces and flaps, but on a thread inside the first namespace the harness "
                + "builds SyncScheduler(environment: SyncEnvironment(monitoring: .all)) with every default, as a "
                + "user does. Each sample: the default route is absent and one job that requires .network waits; "
                + "the clock starts just before the sendto() of the RTM_NEWROUTE that adds the route and stops "
                + "at the first instruction of the job's body. Baseline, same flap: a bare netlink socket on its "
                + "own thread wakes on the same RTM_NEWROUTE and resumes a CheckedContinuation. Then the release "
                + "build's `syncgate wait --require network`, started in the namespace while "
                + "the route is absent; the route is added 300 ms after the tool's rtnetlink socket appears in the "
                + "namespace, and the clock stops when waitpid() returns its exit. Reference child, interleaved: "
                + "this harness re-run as a child that opens one rtnetlink socket, waits for the RTM_NEWROUTE of "
                + "the default route and exits (a Swift process's floor for the same answer). Both children are "
                + "spawned by the thread inside the namespace, so they start in it"
        )
        #if os(Linux)
            if let reason = NetworkNamespacePair.unavailableReason {
                result.skipped = "skipped: " + reason
                return result
            }
            let measured: DefaultPathMeasurement = try await withCheckedThrowingContinuation { continuation in
                let thread = Thread {
                    continuation.resume(with: Result { try DefaultPathMeasurement(sizes: sizes) })
                }
                thread.start()
            }
            await measured.scheduler.shutdown(gracePeriod: .seconds(5))
            result.latencies.append(
                LatencyComparison(
                    subject: "route appears → job body, default configuration", samples: measured.job,
                    baseline: "bare socket wake-up → resumed task", baselineSamples: measured.raw, goals: []))
            let jobP50 = LatencySummary(nanoseconds: measured.job).value("p50") / 1e6
            result.figures.append(
                Figure(
                    "route appears → job body, default configuration, p50", jobP50, unit: "ms", goal: "≤ 2 ms",
                    goalMet: jobP50 <= 2))
            if let waits = measured.toolWaits {
                result.latencies.append(
                    LatencyComparison(
                        subject: "route appears → `syncgate wait` exits", samples: waits,
                        baseline: "reference child: bare socket → exit", baselineSamples: measured.referenceWaits,
                        goals: [], rounds: 1))
                let p50 = LatencySummary(nanoseconds: waits).value("p50") / 1e6
                result.figures.append(
                    Figure(
                        "route appears → `syncgate wait --require network` exits (child process), p50 of "
                            + "\(waits.count)", p50, unit: "ms", goal: "≤ 2 ms", goalMet: p50 <= 2))
                result.checks.append("each of the \(waits.count) `syncgate wait` children exited 0 after its route")
            } else {
                result.notes.append(
                    "`syncgate wait` not measured: no syncgate executable beside the harness (build it with "
                        + "`swift build -c release --product syncgate`)")
            }
            result.checks.append(
                "each of the \(measured.job.count) measured jobs ran exactly once, after its route appeared")
        #else
            result.skipped = "skipped: network namespaces exist only on Linux"
        #endif
        return result
    }
}

#if os(Linux)
    /// Scenario 13's measurements, taken on one dedicated thread that moves itself into the namespace.
    struct DefaultPathMeasurement: @unchecked Sendable {
        var job: [Double] = []
        var raw: [Double] = []
        /// Route → `syncgate wait` exit, in nanoseconds; `nil` when the tool was not found.
        var toolWaits: [Double]?
        /// Route → the reference child's exit, in nanoseconds.
        var referenceWaits: [Double] = []
        /// The scheduler, to be shut down by the caller.
        let scheduler: SyncScheduler

        private static let scenario = Scenario.defaultPath.name

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
            let environment = SyncEnvironment(monitoring: .all)
            scheduler = SyncScheduler(environment: environment)
            let flaps = try RouteFlapSampler(environment: environment, scheduler: scheduler, scenario: Self.scenario)
            try flaps.removeRoute()
            // Each flap's loss is reported after the observer's window, which is what a flap costs here.
            (job, raw) = try flaps.sample(warmup: sizes.kernelJobWarmup, samples: sizes.defaultPathSamples)

            guard let tool = Self.toolPath else { return }
            let harness = Scenario.harnessExecutable.path
            var waits: [Double] = []
            for _ in 0..<sizes.childWaitSamples {
                referenceWaits.append(try childExit([harness, Self.referenceChildArgument], flaps: flaps))
                waits.append(try childExit([tool, "wait", "--require", "network"], flaps: flaps))
            }
            toolWaits = waits
        }

        /// Spawns `arguments` (in this thread's namespace), adds the route once the child listens, and
        /// returns the nanoseconds from the route to `waitpid()` returning its exit; removes the route.
        private func childExit(_ arguments: [String], flaps: RouteFlapSampler) throws -> Double {
            let child = try Self.spawn(arguments)
            try Self.awaitRouteSocket(of: child)
            usleep(300_000)  // the child has finished starting and waits
            let start = ContinuousClock.now
            try flaps.route(true)
            var status: Int32 = 0
            guard waitpid(child, &status, 0) == child else { throw Self.failure("waitpid failed: \(errno)") }
            let end = ContinuousClock.now
            try flaps.removeRoute()
            guard status == 0 else {
                throw Self.failure("\(arguments.joined(separator: " ")) ended with wait status \(status)")
            }
            return start.duration(to: end).nanoseconds
        }

        /// The argument that makes the harness the reference child.
        static let referenceChildArgument = "--reference-child-await-default-route"

        /// The reference child: waits on a bare rtnetlink socket for the IPv4 default route to be added,
        /// then returns 0 (1 when the socket cannot be opened).
        static func runReferenceChild() -> Int32 {
            guard
                let socket = try? NetlinkSocket(
                    groups: Netlink.Group.ipv4Route, receiveBufferSize: nil, bufferSize: 16 * 1024)
            else { return 1 }
            while true {
                guard socket.waitReadable(milliseconds: 60_000) else { return 1 }
                while case .datagram(let bytes) = socket.receive() {
                    for message in NetlinkMessage.parse(bytes).messages
                    where message.type == Netlink.MessageType.newRoute {
                        if let route = NetlinkRoute.decode(message), route.family == Netlink.familyIPv4,
                            route.destinationLength == 0
                        {
                            return 0
                        }
                    }
                }
            }
        }

        /// The release `syncgate` beside this executable, if built.
        private static var toolPath: String? {
            let path = Scenario.harnessExecutable.deletingLastPathComponent().appendingPathComponent("syncgate").path
            return FileManager.default.isExecutableFile(atPath: path) ? path : nil
        }

        /// Starts `arguments` with stdin, stdout and stderr on /dev/null.
        private static func spawn(_ arguments: [String]) throws -> pid_t {
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            for descriptor: Int32 in 0...2 {
                posix_spawn_file_actions_addopen(
                    &actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
            }
            var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
            defer { for argument in argv { free(argument) } }
            var pid: pid_t = 0
            let code = posix_spawn(&pid, arguments[0], &actions, nil, &argv, environ)
            guard code == 0 else { throw Self.failure("posix_spawn \(arguments[0]) failed: \(code)") }
            return pid
        }

        /// Waits until the namespace lists an rtnetlink socket of `pid`, so the child has subscribed.
        private static func awaitRouteSocket(of pid: pid_t) throws {
            let deadline = ContinuousClock.now + .seconds(10)
            while ContinuousClock.now < deadline {
                if let table = try? String(contentsOfFile: "/proc/thread-self/net/netlink", encoding: .utf8),
                    table.split(separator: "\n").dropFirst().contains(where: {
                        let fields = $0.split(separator: " ", omittingEmptySubsequences: true)
                        return fields.count > 3 && fields[1] == "0" && fields[2] == "\(pid)"
                    })
                {
                    return
                }
                usleep(1_000)
            }
            throw Self.failure("`syncgate wait` (pid \(pid)) opened no rtnetlink socket within 10 s")
        }

        private static func failure(_ message: String) -> BenchmarkFailure {
            BenchmarkFailure(scenario: scenario, message: message)
        }
    }
#endif
