// libFuzzer target for the daemon's request decoder (DaemonProtocol.decodeRequest with
// DaemonRequestFields.validated), the first code that reads what any local client sends. Built and run by
// Fuzz/run.sh with the files named in sources.txt:
//   Fuzz/run.sh 60 DaemonRequest
// Besides "never traps", it checks that an accepted request keeps the documented bounds (durations in
// range, a period no shorter than the minimum, labels and the network list within their limits) and encodes to a line that
// decodes back to it.

/// libFuzzer's entry point: decodes one request line, which must never trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDaemonRequest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size))
    guard let request = try? DaemonProtocol.decodeRequest(bytes) else { return 0 }
    if case .submit(let submission) = request {
        let period = try? submission.periodDurations(everyOption: "every", flexOption: "flex")
        precondition(submission.every == nil || period != nil, "an accepted period does not read")
        if let period {
            precondition(
                period.every >= DaemonLimits.minimumPeriod && period.flex > .zero && period.flex < period.every)
        }
        for label in submission.tags + submission.conditions
            + [submission.name, submission.uniqueKey].compactMap({ $0 })
        {
            precondition(DaemonLimits.labelProblem(label) == nil, "accepted label \(label.debugDescription)")
        }
        precondition(!submission.command.contains { $0.utf8.contains(0) }, "accepted a NUL in the command")
        if let network = submission.network {
            precondition(
                DaemonLimits.networkListProblem(network) == nil, "accepted network \(network.debugDescription)")
        }
    }
    let line = DaemonProtocol.encodeLine(request)
    guard let again = try? DaemonProtocol.decodeRequest(Array(line.dropLast())) else {
        preconditionFailure("the encoding of an accepted request does not decode")
    }
    precondition(again == request, "round trip changed the request")
    return 0
}
