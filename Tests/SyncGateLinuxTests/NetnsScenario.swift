#if os(Linux)
    import Testing

    /// A change of a namespace's network, made with `ip` from outside, and what a follower of the observed
    /// namespace must see after each step: the table behind the end-to-end namespace tests.
    struct NetnsScenario: Sendable, CustomTestStringConvertible {
        /// The namespace a step's commands run in.
        enum Side: Sendable {
            /// Where the code under test runs (`v0`).
            case observed
            /// The other end of the veth pair (`v1`).
            case peer
        }

        /// Commands run in one namespace, after which connectivity must read `connected`.
        struct Step: Sendable {
            var side: Side
            var commands: [String]
            var connected: Bool
            /// The interface kind reported after the step (`other` for veth, `none` when disconnected).
            var interface: String

            init(_ side: Side, _ commands: [String], connected: Bool, interface: String? = nil) {
                self.side = side
                self.commands = commands
                self.connected = connected
                self.interface = interface ?? (connected ? "other" : "none")
            }
        }

        /// How the namespace is configured before the code under test starts.
        enum Setup: Sendable {
            /// IPv4 addresses with the default route.
            case ipv4
            /// IPv4 addresses, no default route.
            case ipv4WithoutRoute
            /// IPv6 addresses with the IPv6 default route, and no IPv4 at all.
            case ipv6Only
        }

        var name: String
        var setup: Setup
        var steps: [Step]

        var testDescription: String { name }

        /// Whether the observed namespace has a default route once set up.
        var startsConnected: Bool { setup != .ipv4WithoutRoute }

        /// Every scenario of the namespace suite, from the observer's own tests.
        static let all: [NetnsScenario] = [
            NetnsScenario(
                name: "default route appears", setup: .ipv4WithoutRoute,
                steps: [Step(.observed, ["route add default via 10.200.0.1 dev v0"], connected: true)]),
            NetnsScenario(
                name: "link set down, then up with its route", setup: .ipv4,
                steps: [
                    Step(.observed, ["link set v0 down"], connected: false),
                    Step(.observed, ["link set v0 up", "route add default via 10.200.0.1 dev v0"], connected: true),
                ]),
            NetnsScenario(
                name: "carrier loss (veth peer down), then back", setup: .ipv4,
                steps: [
                    Step(.peer, ["link set v1 down"], connected: false),
                    Step(.peer, ["link set v1 up"], connected: true),
                ]),
            NetnsScenario(
                name: "default route deleted and re-added", setup: .ipv4,
                steps: [
                    Step(.observed, ["route del default"], connected: false),
                    Step(.observed, ["route add default via 10.200.0.1 dev v0"], connected: true),
                ]),
            NetnsScenario(
                name: "IPv6-only default route deleted and re-added", setup: .ipv6Only,
                steps: [
                    Step(.observed, ["-6 route del default"], connected: false),
                    Step(.observed, ["-6 route add default via 2001:db8:200::1 dev v0"], connected: true),
                ]),
            NetnsScenario(
                name: "interface deleted", setup: .ipv4,
                steps: [Step(.observed, ["link del v0"], connected: false)]),
        ]

        /// Configures `topology` for the scenario.
        func configure(_ topology: NetnsTopology) throws {
            switch setup {
            case .ipv4: try topology.configureIPv4()
            case .ipv4WithoutRoute: try topology.configureIPv4(defaultRoute: false)
            case .ipv6Only: try topology.configureIPv6()
            }
        }

        /// Runs the step's commands, in order.
        static func apply(_ step: Step, to topology: NetnsTopology) throws {
            for command in step.commands {
                switch step.side {
                case .observed: try topology.inObserved(command)
                case .peer: try topology.inPeer(command)
                }
            }
        }
    }
#endif
