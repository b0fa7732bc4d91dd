import Testing

@testable import SyncGateCore

@testable import SyncGateLinux
@testable import SyncGateWire

@Suite(.timeLimit(.minutes(1)))
struct NetlinkCodecTests {
    @Test func capturedLinkDumpDecodesLoopbackAndVeth() throws {
        let datagram = NetlinkMessage.parse(CapturedNetlink.linkDump)
        #expect(!datagram.isMalformed)
        let links = datagram.messages.compactMap(NetlinkLink.decode)
        #expect(links.count == 2)
        let loopback = try #require(links.first { $0.index == 1 })
        #expect(loopback.name == "lo")
        #expect(loopback.hardwareType == 772)
        #expect(loopback.flags & Netlink.InterfaceFlag.loopback != 0)
        #expect(!loopback.isUsable)
        let veth = try #require(links.first { $0.index == 2 })
        #expect(veth.name == "v0")
        #expect(veth.kind == "veth")
        #expect(veth.hardwareType == 1)
        #expect(veth.operationalState == Netlink.OperationalState.up)
        #expect(veth.isUsable)
        #expect(datagram.messages.allSatisfy { $0.flags & Netlink.MessageFlag.multi != 0 })
    }

    @Test func capturedDumpEndIsDone() {
        let messages = NetlinkMessage.parse(CapturedNetlink.dumpDone).messages
        #expect(messages.map(\.type) == [Netlink.MessageType.done])
    }

    @Test func capturedIPv4RouteNamesItsInterface() throws {
        let messages = NetlinkMessage.parse(CapturedNetlink.ipv4Route).messages
        let answer = try #require(RouteLookupResult.answer(in: messages, sequence: messages[0].sequence))
        let route = try #require(answer.route)
        #expect(route.family == Netlink.familyIPv4)
        #expect(route.type == Netlink.RouteType.unicast)
        #expect(route.table == 254)
        #expect(route.outputInterface == 2)
        #expect(route.candidateInterfaces == [2])
    }

    @Test func capturedLinkDownRouteHasNoCandidates() throws {
        let messages = NetlinkMessage.parse(CapturedNetlink.ipv4LinkDownRoute).messages
        let route = try #require(messages.compactMap(NetlinkRoute.decode).first)
        #expect(route.flags & Netlink.RouteFlag.linkDown != 0)
        #expect(route.candidateInterfaces.isEmpty)
    }

    @Test func capturedUnreachableIsAFailure() {
        for bytes in [CapturedNetlink.ipv4Unreachable, CapturedNetlink.ipv6Unreachable] {
            let messages = NetlinkMessage.parse(bytes).messages
            #expect(messages.first?.errorCode == Netlink.ErrorCode.networkUnreachable)
            #expect(
                RouteLookupResult.answer(in: messages, sequence: messages.first?.sequence ?? 0)
                    == .failed(errno: Netlink.ErrorCode.networkUnreachable)
            )
        }
    }

    /// The reader recognises a lookup that still answers with the entry `RTM_DELROUTE` announced (the
    /// kernel announces a removal just before it takes the entry out): both name the same entry, whatever
    /// its state flags, and another route does not.
    @Test func deletedRouteAndLookupNameTheSameEntry() throws {
        let decode = { (bytes: [UInt8]) throws -> NetlinkRoute in
            try #require(NetlinkMessage.parse(bytes).messages.compactMap(NetlinkRoute.decode).first)
        }
        let deleted = try decode(CapturedNetlink.ipv4RouteDeleted)
        let lookup = try decode(CapturedNetlink.ipv4Route)
        #expect(deleted.gateway == [10, 200, 0, 1])
        #expect(deleted.destination.isEmpty)
        #expect(deleted.entryKey == lookup.entryKey)
        #expect(try decode(CapturedNetlink.ipv4LinkDownRoute).entryKey == deleted.entryKey)
        #expect(try decode(CapturedNetlink.ipv6Route).entryKey != deleted.entryKey)
        var otherMetric = lookup
        otherMetric.priority = 100
        #expect(otherMetric.entryKey != deleted.entryKey)
    }

    @Test func capturedIPv6Route() throws {
        let messages = NetlinkMessage.parse(CapturedNetlink.ipv6Route).messages
        let route = try #require(messages.compactMap(NetlinkRoute.decode).first)
        #expect(route.family == Netlink.familyIPv6)
        #expect(route.outputInterface == 2)
    }

    @Test func multiMessageDatagramSplitsInOrder() {
        let first = NetlinkMessage(type: Netlink.MessageType.newRoute, sequence: 7, payload: [1, 2, 3])
        let second = NetlinkMessage(type: Netlink.MessageType.done, sequence: 8, payload: [0, 0, 0, 0])
        let datagram = NetlinkMessage.parse(first.bytes + second.bytes)
        #expect(datagram.messages == [first, second])
        #expect(!datagram.isMalformed)
    }

    @Test(arguments: [0, 1, 4, 15, 17, 40])
    func truncatedDatagramsNeverTrap(keep: Int) {
        let bytes = CapturedNetlink.ipv6Route
        let datagram = NetlinkMessage.parse(Array(bytes.prefix(keep)))
        #expect(datagram.messages.isEmpty)
        #expect(datagram.isMalformed == (keep > 0))
    }

    @Test func impossibleLengthsStopParsing() {
        var tooShort = NetlinkMessage(type: Netlink.MessageType.noop).bytes
        NetlinkBytes.store(UInt32(8), into: &tooShort, at: 0)
        #expect(NetlinkMessage.parse(tooShort).isMalformed)
        var tooLong = NetlinkMessage(type: Netlink.MessageType.noop).bytes
        NetlinkBytes.store(UInt32.max, into: &tooLong, at: 0)
        #expect(NetlinkMessage.parse(tooLong).messages.isEmpty)
        #expect(NetlinkAttribute.parse([3, 0, 1, 0], from: 0).isEmpty)
        #expect(NetlinkAttribute.parse([255, 255, 1, 0, 9], from: 0).isEmpty)
        #expect(NetlinkAttribute.parse([8, 0, 1, 0], from: -5).isEmpty)
        #expect(NetlinkRoute.parseNextHops([4, 0, 0, 0, 2, 0, 0, 0]).isEmpty)
    }

    @Test func errorsAcksAndOverflow() {
        var ack: [UInt8] = []
        NetlinkBytes.append(Int32(0), to: &ack)
        #expect(NetlinkMessage(type: Netlink.MessageType.error, payload: ack).errorCode == 0)
        var overflow: [UInt8] = []
        NetlinkBytes.append(-Netlink.ErrorCode.noBufferSpace, to: &overflow)
        #expect(NetlinkMessage(type: Netlink.MessageType.error, payload: overflow).reportsOverflow)
        #expect(NetlinkMessage(type: Netlink.MessageType.overrun).reportsOverflow)
        #expect(NetlinkMessage(type: Netlink.MessageType.error, payload: [1]).errorCode == nil)
        #expect(NetlinkMessage(type: Netlink.MessageType.error, payload: [0, 0, 0, 0x80]).errorCode == .max)
        #expect(NetlinkMessage(type: 0, flags: Netlink.MessageFlag.dumpInterrupted).isDumpInterrupted)
    }

    @Test func multipathRouteUsesHealthyNextHops() throws {
        var hops: [UInt8] = []
        for (flags, index) in [
            (UInt8(Netlink.RouteFlag.linkDown), Int32(3)), (0, 4), (UInt8(Netlink.RouteFlag.dead), 5),
        ] {
            NetlinkBytes.append(UInt16(8), to: &hops)
            hops += [flags, 0]
            NetlinkBytes.append(index, to: &hops)
        }
        var payload: [UInt8] = [Netlink.familyIPv4, 0, 0, 0, 254, 3, 0, Netlink.RouteType.unicast, 0, 0, 0, 0]
        payload += NetlinkAttribute(type: Netlink.RouteAttribute.multipath, payload: hops).bytes
        var table: [UInt8] = []
        NetlinkBytes.append(UInt32(1000), to: &table)
        payload += NetlinkAttribute(type: Netlink.RouteAttribute.table, payload: table).bytes
        let route = try #require(
            NetlinkRoute.decode(NetlinkMessage(type: Netlink.MessageType.newRoute, payload: payload))
        )
        #expect(route.nextHops.map(\.interfaceIndex) == [3, 4, 5])
        #expect(route.candidateInterfaces == [4])
        #expect(route.table == 1000)
    }

    @Test func linkNameKeepsItsBytesAndIsShownEscaped() throws {
        var payload = [UInt8](repeating: 0, count: Netlink.linkHeaderSize)
        payload += NetlinkAttribute(type: Netlink.LinkAttribute.name, payload: [0xFF, 0x7A, 0xC3, 0xA9, 0x0A, 0]).bytes
        let link = try #require(NetlinkLink.decode(NetlinkMessage(type: Netlink.MessageType.newLink, payload: payload)))
        #expect(link.nameBytes == [0xFF, 0x7A, 0xC3, 0xA9, 0x0A])
        #expect(link.name == "\\xffz\u{E9}\n")
        #expect(NetlinkBytes.displayName([0x65, 0xC3, 0x28, 0xE2, 0x82]) == #"e\xc3(\xe2\x82"#)
        #expect(NetlinkBytes.displayName(Array("wlan0".utf8)) == "wlan0")
        #expect(NetlinkLink(index: 1, flags: 0, name: "eth0").nameBytes == Array("eth0".utf8))
    }

    @Test func linkMessagesOfOtherFamiliesAreIgnored() {
        var payload = [UInt8](repeating: 0, count: Netlink.linkHeaderSize)
        payload[0] = 7  // AF_BRIDGE
        #expect(NetlinkLink.decode(NetlinkMessage(type: Netlink.MessageType.newLink, payload: payload)) == nil)
        #expect(NetlinkLink.decode(NetlinkMessage(type: Netlink.MessageType.newRoute, payload: payload)) == nil)
    }

    @Test func wirelessChatterIsRecognised() throws {
        var payload = [UInt8](repeating: 0, count: Netlink.linkHeaderSize)
        payload += NetlinkAttribute(type: Netlink.LinkAttribute.wireless, payload: [1, 2, 3, 4]).bytes
        let link = try #require(NetlinkLink.decode(NetlinkMessage(type: Netlink.MessageType.newLink, payload: payload)))
        #expect(link.isWirelessChatter)
    }
}
