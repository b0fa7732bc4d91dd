// libFuzzer entry point for the rtnetlink codec (Sources/SyncGateWire/Netlink). Built and run by
// Fuzz/run.sh, with the wire codecs. Any input must parse without trapping, and everything that parses must
// survive a re-encode → parse round trip unchanged.

/// Parses one fuzzer input as an rtnetlink datagram and checks the codec's round-trip invariants.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNetlink(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let datagram = NetlinkMessage.parse(bytes)
    for message in datagram.messages {
        precondition(NetlinkMessage.parse(message.bytes).messages == [message], "message round trip")
        _ = message.errorCode
        _ = message.reportsOverflow
        _ = message.isDumpInterrupted
        if let link = NetlinkLink.decode(message) {
            _ = link.isUsable
            _ = link.isWirelessChatter
        }
        if let route = NetlinkRoute.decode(message) {
            _ = route.candidateInterfaces
        }
        if let rule = NetlinkRule.decode(message) {
            _ = (rule.family, rule.table, rule.isPlainLookup)
        }
        _ = RouteLookupResult.answer(in: [message], sequence: message.sequence)
        for attribute in NetlinkAttribute.parse(message.payload, from: 0) {
            precondition(NetlinkAttribute.parse(attribute.bytes, from: 0) == [attribute], "attribute round trip")
            _ = attribute.string
            _ = attribute.uint32
            _ = attribute.nested
        }
    }
    // Offsets the decoders never use must not trap either.
    _ = NetlinkAttribute.parse(bytes, from: Int(bytes[0]) - 8)
    _ = NetlinkRoute.parseNextHops(bytes)
    if size == 4 || size == 16 {
        let request = NetlinkRequest.routeLookup(destination: bytes, sequence: 1)
        precondition(request.map { NetlinkMessage.parse($0).messages.count } == 1, "request parses")
    }
    return 0
}
