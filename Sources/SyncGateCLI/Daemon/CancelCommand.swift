/// `syncgate cancel`: cancels a job, every job with a tag, or the unfinished job with a unique key.
///
/// It exits 1 when nothing was cancelled, and when a cancel is not on disk yet (the daemon keeps writing
/// it; a restart before then runs those jobs again). `cancel ID` of a job kept in the store without
/// running (state `kept` in `jobs`) discards it; `--tag` and `--unique` discard the kept jobs they match.
package struct CancelCommand: Subcommand {
    /// `cancel`.
    package static let name = "cancel"
    /// The row under USAGE.
    package static let synopsis = "syncgate cancel ID | --tag TAG | --unique KEY"
    /// None: the synopsis says it.
    package static let summary = ""
    /// `--tag` and `--unique`.
    package static let options = [
        CommandLineOption("--tag", .text("TAG")), CommandLineOption("--unique", .text("KEY")),
    ]
    /// The job's id.
    package static let operands = CommandLineOperands.arguments

    /// The help of `syncgate cancel`.
    package static func help(_ sections: HelpText.Sections) -> String {
        """
        USAGE: syncgate cancel ID | --tag TAG | --unique KEY

        Cancels a job, every job with TAG, or the unfinished job with KEY. A running command gets
        SIGTERM, then SIGKILL. Exits 1 when nothing was cancelled; an ID that names no job, or a
        job that has ended, is one line on stderr ("no job with id 'ID'") and exit 1, as in 'logs'.
        An ID in state 'kept' (in the store, but not restored: 'jobs' says why) is discarded:
        it leaves the store for good ("discarded kept job 'ID'"); so are the kept jobs of TAG
        or KEY, counted among the cancelled.
        """
    }

    /// Which jobs to cancel.
    package var selector: DaemonRequest.CancelSelector

    /// Creates the invocation.
    package init(_ selector: DaemonRequest.CancelSelector) {
        self.selector = selector
    }

    /// Reads exactly one of ID, `--tag` and `--unique`, not empty.
    package init(parsing arguments: ParsedArguments) throws(UsageError) {
        let tail = arguments.operands
        let selectors: [DaemonRequest.CancelSelector] = [
            tail.first.map { .id($0) }, arguments.value("--tag").map { .tag($0) },
            arguments.value("--unique").map { .uniqueKey($0) },
        ].compactMap { $0 }
        if tail.count > 1 { throw UsageError("unexpected argument '\(tail[1])' for 'cancel'") }
        guard selectors.count == 1 else {
            throw UsageError("'cancel' needs exactly one of ID, --tag TAG, --unique KEY")
        }
        if selectors[0].value.isEmpty { throw UsageError("empty value for 'cancel'") }
        selector = selectors[0]
    }

    /// Asks the daemon to cancel and prints how many jobs it cancelled.
    package func run() async -> Int32 {
        await DaemonClient.session { client, _ throws(DaemonClient.Failure) in
            let response = try client.checkedRequest(.cancel(selector))
            let discarded = response.discarded ?? 0
            if case .id = selector, discarded > 0 {
                Output.line("discarded kept job '\(DaemonLimits.escaped(selector.value))' from the store")
                return ExitCode.success
            }
            let count = response.cancelled ?? 0
            let kept =
                discarded == 0
                ? "" : " (\(discarded) of them kept in the store without running, discarded from it)"
            Output.line("cancelled \(count) job\(count == 1 ? "" : "s")\(kept)")
            if let unwritten = response.notWritten, unwritten > 0 {
                Output.error(
                    "the cancel of \(unwritten) more job\(unwritten == 1 ? " is" : "s is") not on disk yet "
                        + "(\(response.writeError ?? "unknown error")); the daemon keeps writing it, and "
                        + "\(unwritten == 1 ? "that job runs" : "those jobs run") again if the daemon restarts first"
                )
                return ExitCode.failure
            }
            return count == 0 ? ExitCode.failure : ExitCode.success
        }
    }
}
