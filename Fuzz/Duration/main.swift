// libFuzzer target for the command line's duration parser (DurationParser), which also reads every
// duration of the daemon's requests. Built and run by Fuzz/run.sh with the files named in sources.txt:
//   Fuzz/run.sh 60 Duration
// Besides "never traps" (an overflow traps), it checks that an accepted duration is within the documented
// range and that its written form reads back to within a millisecond of it.

/// libFuzzer's entry point: parses one input, which must never trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDuration(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: data == nil ? 0 : size)
    let text = String(decoding: bytes, as: UTF8.self)
    guard let duration = try? DurationParser.parse(text, option: "--fuzz") else { return 0 }
    precondition(duration >= .zero, "negative duration \(duration) from \(text.debugDescription)")
    precondition(
        duration <= .seconds(DurationParser.maximumHours * 3_600), "\(duration) from \(text.debugDescription)")
    let written = DurationParser.format(duration)
    guard let again = try? DurationParser.parse(written, option: "--fuzz") else {
        preconditionFailure("\(written) (written for \(text.debugDescription)) does not read back")
    }
    let difference = again > duration ? again - duration : duration - again
    precondition(difference <= .milliseconds(1), "\(text.debugDescription) -> \(written) -> \(again)")
    return 0
}
