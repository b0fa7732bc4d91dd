// libFuzzer target for the D-Bus message decoder (DBusMessage.decode and the framing). Built and run by
// Fuzz/run.sh, with the wire codecs (Sources/SyncGateWire, standard library only):
//   Fuzz/run.sh 60 DBus
// Besides "never traps", it checks that a decoded message re-encodes to bytes that decode to the same
// bytes again (compared as bytes, so a NaN double does not count as a difference).

/// libFuzzer's entry point: frames and decodes one input, which must never trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDBus(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size))
    if bytes.count >= DBusMessage.fixedHeaderLength {
        _ = try? DBusMessage.frameLength(prefix: Array(bytes.prefix(DBusMessage.fixedHeaderLength)))
    }
    _ = try? DBusType.parse(String(decoding: bytes.prefix(300), as: UTF8.self))
    guard let message = try? DBusMessage.decode(bytes) else { return 0 }
    let encoded = message.encoded()
    guard let again = try? DBusMessage.decode(encoded) else {
        preconditionFailure("a decoded message re-encoded to bytes that do not decode")
    }
    precondition(again.encoded() == encoded, "round trip changed the message")
    _ = message.body.map(\.description)
    return 0
}
