// libFuzzer target for the kernel uevent parser (UEventMessage). Built with the parser source alone:
//   swiftc -sanitize=fuzzer,address -parse-as-library Fuzz/UEvent/main.swift \
//       $(cat Fuzz/UEvent/sources.txt) -o /tmp/fuzz-uevent
//   /tmp/fuzz-uevent -max_total_time=60 Fuzz/UEvent/corpus
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
