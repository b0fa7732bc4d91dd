import Testing

@testable import SyncGateCore

@testable import SyncGateLinux
@testable import SyncGateWire

@Suite(.timeLimit(.minutes(1)))
struct NetlinkRequestTests {
    @Test func linkDumpRequestLayout() {
        let bytes = NetlinkRequest.linkDump(sequence: 9)
        #expect(bytes.count == 32)
        let message = NetlinkMessage.parse(bytes).messages.first
        #expect(message?.type == Netlink.MessageType.getLink)
        #expect(message?.flags == Netlink.MessageFlag.request | Netlink.MessageFlag.dump)
        #expect(message?.sequence == 9)
        #expect(message?.payload == [UInt8](repeating: 0, count: 16))
    }

    @Test func ruleDumpRequestLayout() {
        let bytes = NetlinkRequest.ruleDump(sequence: 7)
        #expect(bytes.count == 28)
        let message = NetlinkMessage.parse(bytes).messages.first
        #expect(message?.type == Netlink.MessageType.getRule)
        #expect(message?.flags == Netlink.MessageFlag.request | Netlink.MessageFlag.dump)
        #expect(message?.sequence == 7)
        #expect(message?.payload == [UInt8](repeating: 0, count: 12))
    }

    @Test func singleLinkRequestCarriesTheIndex() {
        let message = NetlinkMessage.parse(NetlinkRequest.getLink(index: 42, sequence: 1)).messages.first
        #expect(message?.flags == Netlink.MessageFlag.request)
        #expect(message.flatMap { NetlinkBytes.load(Int32.self, from: $0.payload, at: 4) } == 42)
    }

    @Test func ipv4RouteLookupLayout() throws {
        let bytes = try #require(NetlinkRequest.routeLookup(destination: [1, 1, 1, 1], sequence: 3))
        #expect(bytes.count == 16 + 12 + 8)
        #expect(NetlinkBytes.load(UInt32.self, from: bytes, at: 0) == 36)
        let message = try #require(NetlinkMessage.parse(bytes).messages.first)
        #expect(message.type == Netlink.MessageType.getRoute)
        #expect(message.payload[0] == Netlink.familyIPv4)
        #expect(message.payload[1] == 32)
        #expect(NetlinkBytes.load(UInt32.self, from: message.payload, at: 8) == Netlink.RouteFlag.fibMatch)
        let attributes = NetlinkAttribute.parse(message.payload, from: Netlink.routeHeaderSize)
        #expect(attributes == [NetlinkAttribute(type: Netlink.RouteAttribute.destination, payload: [1, 1, 1, 1])])
    }

    @Test func ipv6RouteLookupLayout() throws {
        let address: [UInt8] = Array(repeating: 0x20, count: 16)
        let bytes = try #require(NetlinkRequest.routeLookup(destination: address, sequence: 4))
        #expect(bytes.count == 16 + 12 + 20)
        let message = try #require(NetlinkMessage.parse(bytes).messages.first)
        #expect(message.payload[0] == Netlink.familyIPv6)
        #expect(message.payload[1] == 128)
        #expect(NetlinkAttribute.parse(message.payload, from: 12).first?.payload == address)
    }

    @Test func otherAddressLengthsAreRejected() {
        #expect(NetlinkRequest.routeLookup(destination: [1, 2, 3], sequence: 1) == nil)
    }
}
