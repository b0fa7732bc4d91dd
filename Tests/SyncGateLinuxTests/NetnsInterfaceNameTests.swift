#if os(Linux)
    import Foundation
    import SyncGateTestSupport
    import SyncGateTesting
    import Testing

    @testable import SyncGateCore

    @testable import SyncGateLinux

    /// An interface whose name is not UTF-8, on the real kernel: Linux takes any bytes but `/`, NUL and
    /// whitespace, and `ip` passes them through. The veth `\xffz` carries the default route of the observed
    /// namespace; its sysfs entries must be looked up by those exact bytes, and its name is shown with the
    /// byte escaped. Needs root and iproute2; skips elsewhere unless SYNCGATE_REQUIRE_NETNS=1.
    @Suite(.startsProcesses, .enabled(if: NetnsSupport.isEnabled, NetnsSupport.skipComment), .timeLimit(.minutes(1)))
    struct NetnsInterfaceNameTests {
        /// The interface name's bytes: 0xFF is never valid in UTF-8.
        static let nameBytes: [UInt8] = [0xFF, UInt8(ascii: "z")]

        /// A fresh topology whose observed end of a second veth pair is renamed to `\xffz` (by `sh`, since
        /// the name cannot be a Swift string), addressed 10.202.0.2/24 and up, its peer `nz1` at
        /// 10.202.0.1 in the peer namespace; deleted afterwards.
        func withOddlyNamedLink(_ body: (NetnsTopology) async throws -> Void) async throws {
            let topology = try NetnsTopology()
            defer { topology.destroy() }
            guard let ip = NetnsSupport.ipPath else { throw NetnsError(message: "no ip") }
            try topology.inObserved("link add nz0 type veth peer name nz1 netns \(topology.peer)")
            let name = #""$(printf '\377z')""#
            try NetnsSupport.run(
                "/bin/sh",
                [
                    "-c",
                    "set -e; ip=\(ip); ns=\(topology.observed); $ip -n $ns link set nz0 name \(name);"
                        + " $ip -n $ns addr add 10.202.0.2/24 dev \(name); $ip -n $ns link set \(name) up",
                ])
            try topology.inPeer("addr add 10.202.0.1/24 dev nz1")
            try topology.inPeer("link set nz1 up")
            try await body(topology)
        }

        /// Adds the default route through `\xffz`.
        func addDefaultRoute(_ topology: NetnsTopology) throws {
            guard let ip = NetnsSupport.ipPath else { throw NetnsError(message: "no ip") }
            try NetnsSupport.run(
                "/bin/sh",
                [
                    "-c",
                    "\(ip) -n \(topology.observed) route add default via 10.202.0.1 dev \"$(printf '\\377z')\"",
                ])
        }

        @Test("the kind comes from the sysfs entry of the name's exact bytes; the name is shown escaped")
        func kindIsReadByTheExactName() async throws {
            try await withOddlyNamedLink { topology in
                // veth reads as `other` from its link kind whatever sysfs says; only a Wi-Fi `DEVTYPE` under
                // the exact name overrides that, so the kind tells which directory was read. The directory
                // the repaired name `\u{FFFD}z` would name says nothing.
                let sysfs = try SysfsFixture(interfaces: [
                    (Self.nameBytes, "wlan"), (Array("\u{FFFD}z".utf8), nil),
                ])
                defer { sysfs.remove() }
                let observer = try NetnsObserverHost.observer(inNamespace: topology.observed, sysfsRoot: sysfs.root)
                #expect(!observer.status.isConnected)
                try addDefaultRoute(topology)
                let status = try await awaitValue(observer.statusStream, within: .seconds(10), "the route via \\xffz") {
                    $0.isConnected
                }
                #expect(status.interface == .wifi, "\(status)")
                #expect(status.network.interfaceName == #"\xffz"#)
                #expect(SyncNetworkAllowlist([.interfaceType(.wifi)]).matches(status))
            }
        }

        @Test("syncgate status names the interface with the byte escaped")
        func toolShowsTheEscapedName() async throws {
            try await withOddlyNamedLink { topology in
                try addDefaultRoute(topology)
                let tool = try topology.startTool(arguments: ["status", "--json"])
                let (json, code) = try tool.finish(before: .now + .seconds(10))
                #expect(code == 0, "stderr: \(tool.stderrText)")
                let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
                let network = try #require(object["network"] as? [String: Any])
                #expect(network["interfaceName"] as? String == #"\xffz"#)
                #expect(network["interface"] as? String == "other")
            }
        }
    }
#endif
