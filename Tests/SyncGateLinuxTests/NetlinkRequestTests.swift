import Testing

@testable import SyncGateCore

@testable import SyncGateLinux
@testable import SyncGateWire

@Suite(.timeLimit(.minutes(1)))
struct NetlinkRequestTests {
    /// A dump request: its builder, its length, the message type it asks for and its zeroed payload's size.
    struct DumpRequest: Sendable, CustomTestStringConvertible {
        var name: String
        var build: @Sendable (UInt32) -> [UInt8]
        var length: Int
        var type: UInt16
        var payloadLength: Int
        var testDescription: String { name }
    }

    static let dumpRequests: [DumpRequest] = [
        DumpRequest(
            name: "links", build: { NetlinkRequest.linkDump(sequence: $0) }, length: 32,
            type: Netlink.MessageType.getLink, payloadLength: 16),
        DumpRequest(
            name: "rules", build: { NetlinkRequest.ruleDump(sequence: $0) }, length: 28,
            type: Netlink.MessageType.getRule, payloadLength: 12),
    ]

    @Test(arguments: dumpRequests, [7, 9] as [UInt32])
    func dumpRequestLayout(request: DumpRequest, sequence: UInt32) {
        let bytes = request.build(sequence)
        #expect(bytes.count == request.length)
        let message = NetlinkMessage.parse(bytes).messages.first
        #expect(message?.type == request.type)
        #expect(message?.flags == Netlink.MessageFlag.request | Netlink.MessageFlag.dump)
        #expect(message?.sequence == sequence)
        #expect(message?.payload == [UInt8](repeating: 0, count: request.payloadLength))
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
