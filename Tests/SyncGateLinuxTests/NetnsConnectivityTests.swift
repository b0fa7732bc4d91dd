#if os(Linux)
    import Foundation
    import SyncGateTestSupport
    import Testing

    /// The real observer, run by `syncgate-netns-probe` inside network namespaces the tests create, driven
    /// by `ip` from outside. Needs root and iproute2; skips elsewhere unless SYNCGATE_REQUIRE_NETNS=1.
    @Suite(.startsProcesses, .enabled(if: NetnsSupport.isEnabled, NetnsSupport.skipComment), .timeLimit(.minutes(1)))
    struct NetnsConnectivityTests {
        /// A short real debounce keeps these tests quick; the flood test uses the default 200 ms.
        static let watch = ["watch", "--debounce-ms", "50"]

        /// Runs `body` with a fresh topology and always deletes it afterwards.
        func withTopology(_ body: (NetnsTopology) throws -> Void) throws {
            let topology = try NetnsTopology()
            defer { topology.destroy() }
            try body(topology)
        }

        @Test func startsConnected() throws {
            try withTopology { topology in
                try topology.configureIPv4()
                let probe = try topology.startProbe(arguments: Self.watch)
                let first = try probe.next()
                #expect(first.connected)
                #expect(first.interface == "other")  // veth is virtual
                #expect(!first.expensive)
                #expect(!first.constrained)
            }
        }

        @Test func startsDisconnectedThenConnects() throws {
            try withTopology { topology in
                try topology.configureIPv4(defaultRoute: false)
                let probe = try topology.startProbe(arguments: Self.watch)
                #expect(try !probe.next().connected)
                try topology.inObserved("route add default via 10.200.0.1 dev v0")
                let connected = try probe.next()
                #expect(connected.connected)
                // Published from the route's announcement, before the lookup, which found the same.
                #expect(connected.earlyGains == 1)
            }
        }

        @Test func aDefaultRouteTheRulesHideIsNotReportedUntilARuleShowsIt() throws {
            try withTopology { topology in
                try topology.configureIPv4(defaultRoute: false)
                // The main table is looked up only with its default routes suppressed.
                try topology.inObserved("rule add priority 100 table main suppress_prefixlength 0")
                try topology.inObserved("rule del priority 32766")
                let probe = try topology.startProbe(arguments: Self.endlessWindow)
                #expect(try !probe.next().connected)
                try topology.inObserved("route add default via 10.200.0.1 dev v0")
                // The route is not what a lookup finds: nothing is reported, not even early. The rule that
                // shows it is a change the observer follows.
                try topology.inObserved("rule add priority 32766 table main")
                let connected = try probe.next()
                #expect(connected.connected)
                #expect(connected.earlyGains == 0)
            }
        }

        @Test func aRuleThatProhibitsEveryLookupDisconnectsUntilItGoes() throws {
            try withTopology { topology in
                try topology.configureIPv4()
                let probe = try topology.startProbe(arguments: Self.watch)
                #expect(try probe.next().connected)
                try topology.inObserved("rule add priority 100 prohibit")
                #expect(try !probe.next().connected)
                try topology.inObserved("rule del priority 100")
                let connected = try probe.next()
                #expect(connected.connected)
                #expect(connected.earlyGains == 0)
            }
        }

        /// A window longer than any test: what these see reported is reported without waiting for it.
        static let endlessWindow = ["watch", "--debounce-ms", "600000"]

        @Test func aRouteThatAppearsIsReportedWithoutWaitingForTheWindow() throws {
            try withTopology { topology in
                try topology.configureIPv4(defaultRoute: false)
                let probe = try topology.startProbe(arguments: Self.endlessWindow)
                #expect(try !probe.next().connected)
                try topology.inObserved("route add default via 10.200.0.1 dev v0")
                #expect(try probe.next().connected)
            }
        }

        @Test func aRouteThatComesBackWithinTheWindowIsNeverReportedGone() throws {
            try withTopology { topology in
                try topology.configureIPv4()
                let probe = try topology.startProbe(arguments: Self.endlessWindow)
                #expect(try probe.next().connected)
                try topology.inObserved("route del default")
                try topology.inObserved("route add default via 10.200.0.1 dev v0")
                try topology.inPeer("link set v1 down")
                try topology.inPeer("link set v1 up")
                let after = try probe.all(before: .now + .seconds(1))
                #expect(after.isEmpty, "reported during the window: \(after)")
            }
        }

        @Test func linkSetDown() throws {
            // The kernel flushes the IPv4 default route without any RTM_DELROUTE: only the link event tells.
            try withTopology { topology in
                try topology.configureIPv4()
                let probe = try topology.startProbe(arguments: Self.watch)
                #expect(try probe.next().connected)
                try topology.inObserved("link set v0 down")
                #expect(try !probe.next().connected)
                try topology.inObserved("link set v0 up")
                try topology.inObserved("route add default via 10.200.0.1 dev v0")
                #expect(try probe.next().connected)
            }
        }

        @Test func carrierLoss() throws {
            // Peer down: the route stays, flagged linkdown, and no route message is sent at all.
            try withTopology { topology in
                try topology.configureIPv4()
                let probe = try topology.startProbe(arguments: Self.watch)
                #expect(try probe.next().connected)
                try topology.inPeer("link set v1 down")
                #expect(try !probe.next().connected)
                try topology.inPeer("link set v1 up")
                #expect(try probe.next().connected)
                #expect(probe.received.map(\.connected) == [true, false, true])
            }
        }

        @Test func defaultRouteDeletedAndReadded() throws {
            try withTopology { topology in
                try topology.configureIPv4()
                let probe = try topology.startProbe(arguments: Self.watch)
                #expect(try probe.next().connected)
                try topology.inObserved("route del default")
                #expect(try !probe.next().connected)
                try topology.inObserved("route add default via 10.200.0.1 dev v0")
                #expect(try probe.next().connected)
                #expect(probe.received.map(\.connected) == [true, false, true])
            }
        }

        @Test func ipv6OnlyDefaultRoute() throws {
            try withTopology { topology in
                try topology.configureIPv6()
                let probe = try topology.startProbe(arguments: Self.watch)
                let first = try probe.next()
                #expect(first.connected)
                #expect(first.interface == "other")
                try topology.inObserved("-6 route del default")
                #expect(try !probe.next().connected)
                try topology.inObserved("-6 route add default via 2001:db8:200::1 dev v0")
                #expect(try probe.next().connected)
            }
        }

        @Test func ipv4IsPreferredAndIPv6KeepsItConnected() throws {
            try withTopology { topology in
                try topology.configureIPv4()
                try topology.configureIPv6()
                let probe = try topology.startProbe(arguments: Self.watch)
                #expect(try probe.next().connected)
                try topology.inObserved("route del default")
                // Still connected through IPv6: no new value is emitted.
                #expect(try probe.next(before: .now + .milliseconds(500)) == nil)
                try topology.inObserved("-6 route del default")
                #expect(try !probe.next().connected)
            }
        }

        @Test func loopbackDefaultRouteIsNotConnected() throws {
            try withTopology { topology in
                try topology.inObserved("link set lo up")
                try topology.inObserved("route add default dev lo")
                let probe = try topology.startProbe(arguments: Self.watch)
                #expect(try !probe.next().connected)
            }
        }

        @Test func interfaceDeleted() throws {
            try withTopology { topology in
                try topology.configureIPv4()
                let probe = try topology.startProbe(arguments: Self.watch)
                #expect(try probe.next().connected)
                try topology.inObserved("link del v0")
                let next = try probe.next()
                #expect(!next.connected)
                #expect(next.interface == "none")
            }
        }

        @Test func floodOfLinkFlaps() throws {
            // 5 000 peer flaps in one `ip -batch` (well under a second here), ending down.
            try withTopology { topology in
                try topology.configureIPv4()
                let debounce = Duration.milliseconds(200)
                let probe = try topology.startProbe(arguments: ["watch", "--debounce-ms", "200"])
                #expect(try probe.next().connected)
                let commands = (0..<5_000).map { $0 % 2 == 0 ? "link set v1 down" : "link set v1 up" }
                let started = ContinuousClock.now
                try topology.batchInPeer(commands + ["link set v1 down"])
                let ended = ContinuousClock.now
                // The observer answers a burst within two debounce windows of its end; on a loaded machine
                // (CI runs this under the thread sanitizer too) that can take longer, so read until the
                // observer has been quiet for a second, within a bound, and check where it settled.
                let quiet = debounce * 2 + .seconds(1)
                let bound = ended + .seconds(20)
                while ContinuousClock.now < bound, try probe.next(before: min(.now + quiet, bound)) != nil {}
                let final = probe.received.last
                #expect(final?.connected == false, "final value after the flood: \(String(describing: final))")
                let after = try probe.all(before: .now + .seconds(1))
                #expect(after.isEmpty, "emitted after the final value: \(after)")
                print(
                    "flood: batch took \(ended - started), "
                        + "emissions \(probe.received.count), last line \(String(describing: probe.received.last)), "
                        + "resyncs \(probe.received.last?.resyncs ?? 0), evaluations \(probe.received.last?.evaluations ?? 0)"
                )
            }
        }

        @Test func eventSocketOverflowResyncsAndStaysCorrect() throws {
            // The reader is stopped (SIGSTOP) while 5 000 route notifications and the default route's deletion
            // reach its 4 KiB receive buffer, so the buffer overflows (ENOBUFS) whatever the machine's speed:
            // resumed, the observer must re-dump links, re-evaluate and keep working rather than die.
            try withTopology { topology in
                try topology.configureIPv4()
                let probe = try topology.startProbe(arguments: ["watch", "--debounce-ms", "50", "--rcvbuf", "4096"])
                #expect(try probe.next().connected)
                let routes = (0..<5_000).map { index in
                    "route add 10.201.\(index / 250).\(index % 250 + 1)/32 via 10.200.0.1 dev v0"
                }
                probe.process.signal(SIGSTOP)
                defer { probe.process.signal(SIGCONT) }
                try topology.batchInObserved(routes + ["route del default"])
                probe.process.signal(SIGCONT)
                let next = try probe.next()
                #expect(!next.connected)
                #expect(next.resyncs >= 1, "no overflow was seen; resyncs \(next.resyncs)")
                try topology.inObserved("route add default via 10.200.0.1 dev v0")
                #expect(try probe.next().connected)
            }
        }
    }
#endif
