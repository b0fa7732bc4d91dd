#if os(Linux)
    import Foundation
    import SyncGateTestSupport
    import Testing

    /// The library as the README tells users to build it, on the real kernel: `syncgate-netns-probe` builds
    /// only `SyncEnvironment(monitoring: .all)` (and a `SyncScheduler` on it) inside a network namespace,
    /// holds no observer itself, and prints one JSON line per change while the tests change the namespace's
    /// network from outside. Needs root and iproute2; skips elsewhere unless SYNCGATE_REQUIRE_NETNS=1.
    @Suite(.startsProcesses, .enabled(if: NetnsSupport.isEnabled, NetnsSupport.skipComment), .timeLimit(.minutes(1)))
    struct NetnsEnvironmentTests {
        /// How long a line may take after the change that causes it: the 200 ms debounce and a wide margin.
        static let perLine = Duration.seconds(3)

        /// A line of `environment-watch` or `environment-wait`.
        struct EnvironmentLine: Decodable {
            var event: String
            var connected: Bool
            var interface: String
            var met: [String]
            var monitored: [String]
        }

        /// A line of `scheduler`: a scheduler event, or the job's body starting or being cancelled.
        struct SchedulerLine: Decodable {
            var event: String
            var id: String
            var attempt: Int?
            var lost: [String]?
            var unmet: [String]?
            /// The stop reason's name, for `stopRequested` and `body-cancelled`.
            var reason: String?
        }

        /// Runs `body` with a fresh topology and always deletes it afterwards.
        func withTopology(_ body: (NetnsTopology) throws -> Void) throws {
            let topology = try NetnsTopology()
            defer { topology.destroy() }
            try body(topology)
        }

        @Test(arguments: NetnsScenario.all)
        func environmentFollowsTheMachine(scenario: NetnsScenario) throws {
            try withTopology { topology in
                try scenario.configure(topology)
                let probe = try topology.startProbe(arguments: ["environment-watch"])
                let first = try probe.next(EnvironmentLine.self, within: Self.perLine)
                #expect(first.connected == scenario.startsConnected)
                #expect(first.monitored == ["network", "power", "storage", "resources"])
                for step in scenario.steps {
                    try NetnsScenario.apply(step, to: topology)
                    let line = try probe.next(EnvironmentLine.self, within: Self.perLine)
                    #expect(line.connected == step.connected, "after \(step.commands)")
                    #expect(line.interface == step.interface, "after \(step.commands)")
                    #expect(line.met.contains("network") == step.connected, "after \(step.commands)")
                }
            }
        }

        @Test func waitUntilNetworkReturnsWhenTheRouteAppears() throws {
            try withTopology { topology in
                try topology.configureIPv4(defaultRoute: false)
                let probe = try topology.startProbe(arguments: ["environment-wait", "--timeout-ms", "10000"])
                let start = try probe.next(EnvironmentLine.self, within: Self.perLine)
                #expect(start.event == "waiting")
                try #require(!start.connected, "the wait must not be satisfied before the route exists")
                try topology.inObserved("route add default via 10.200.0.1 dev v0")
                let ready = try probe.next(EnvironmentLine.self, within: Self.perLine)
                #expect(ready.event == "ready")
                #expect(ready.connected)
                let (_, status) = try probe.process.finish(before: .now + Self.perLine)
                #expect(status == 0)
            }
        }

        /// Reads scheduler lines until every event in `events` has been seen; returns the lines read.
        private func read(
            _ probe: ProbeProcess, until events: Set<String>, after change: String
        ) throws -> [SchedulerLine] {
            var lines: [SchedulerLine] = []
            var missing = events
            let deadline = ContinuousClock.now + Self.perLine
            while !missing.isEmpty {
                guard let text = try probe.process.nextLine(before: deadline) else {
                    throw NetnsError(
                        message: "after \(change): no \(missing.sorted()) within \(Self.perLine); "
                            + "lines so far: \(probe.process.lines)")
                }
                let line = try JSONDecoder().decode(SchedulerLine.self, from: Data(text.utf8))
                lines.append(line)
                missing.remove(line.event)
            }
            return lines
        }

        @Test func schedulerStartsRequeuesAndRestartsAJob() throws {
            try withTopology { topology in
                try topology.configureIPv4(defaultRoute: false)
                let probe = try topology.startProbe(arguments: ["scheduler"])
                let submitted = try read(probe, until: ["waiting", "submitted"], after: "submitting")
                #expect(submitted.map(\.event) == ["waiting", "submitted"])
                #expect(submitted.first?.unmet == ["network"])

                try topology.inObserved("route add default via 10.200.0.1 dev v0")
                let started = try read(probe, until: ["started", "body-started"], after: "adding the route")
                #expect(Set(started.map(\.event)) == ["started", "body-started"])

                try topology.inObserved("route del default")
                let requeued = try read(probe, until: ["requeued", "body-cancelled"], after: "deleting the route")
                #expect(Set(requeued.map(\.event)) == ["stopRequested", "requeued", "body-cancelled"])
                let requeue = requeued.first { $0.event == "requeued" }
                let stopRequest = requeued.first { $0.event == "stopRequested" }
                let bodyCancel = requeued.first { $0.event == "body-cancelled" }
                #expect(requeue?.lost == ["network"])
                // The body learns why, from the kernel's route change to its cancellation.
                #expect(stopRequest?.reason == "requirements-lost")
                #expect(bodyCancel?.reason == "requirements-lost")

                try topology.inObserved("route add default via 10.200.0.1 dev v0")
                let restarted = try read(probe, until: ["started", "body-started"], after: "re-adding the route")
                #expect(Set(restarted.map(\.event)) == ["started", "body-started"])
            }
        }
    }
#endif
