// libFuzzer target for the kernel uevent parser (UEventMessage). Built and run by Fuzz/run.sh, with the
// wire codecs (Sources/SyncGateWire, standard library only):
//   Fuzz/run.sh 60 UEvent
// Besides "never traps", it checks that a parsed message serialises to bytes that parse back to it.

/// libFuzzer's entry point: parses one input, which must never trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzUEvent(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: data == nil ? 0 : size)
    guard let message = UEventMessage(bytes: bytes) else { return 0 }
    _ = message.subsystem
    _ = message.isPowerSupplyEvent
    let serialised = message.bytes
    if serialised.count <= UEventMessage.maximumLength {
        precondition(UEventMessage(bytes: serialised) == message, "round trip changed the message")
    }
    return 0
}
