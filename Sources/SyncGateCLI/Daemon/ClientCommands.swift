import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `syncgate submit`, `jobs`, `cancel`, `logs` and `set-condition`: requests to the daemon, their
/// answers printed on stdout, errors on stderr with exit status 1.
///
/// An id that names no job (`cancel ID`, `logs ID`) is such an error: `syncgate: no job with id 'ID'`,
/// exit status 1. What the daemon sends that reaches the terminal as text (names, ids, errors) has its
/// control characters escaped (``DaemonLimits/escaped(_:)``); a run's output in `logs` is printed as the
/// command wrote it.
public enum ClientCommands {
    /// Runs a client subcommand and returns its exit status.
    public static func execute(_ command: Command, client: DaemonClient, signals: AsyncStream<Int32>) async -> Int32 {
        do {
            switch command {
            case .submit(let submission):
                return try await submit(submission, client: client, signals: signals)
            case .jobs(let json, let all):
                let response = try checked(client.request(DaemonRequest(type: .jobs, all: all)))
                let jobs = response.jobs ?? []
                if json {
                    Output.write(
                        String(decoding: DaemonProtocol.encodeLine(JobList(version: 1, jobs: jobs)), as: UTF8.self))
                } else {
                    Output.line(jobTable(jobs))
                }
            case .cancel(let request):
                let response = try checked(client.request(request))
                let count = response.cancelled ?? 0
                Output.line("cancelled \(count) job\(count == 1 ? "" : "s")")
                if let unwritten = response.notWritten, unwritten > 0 {
                    Output.error(
                        "the cancel of \(unwritten) more job\(unwritten == 1 ? " is" : "s is") not on disk yet "
                            + "(\(response.writeError ?? "unknown error")); the daemon keeps writing it, and "
                            + "\(unwritten == 1 ? "that job runs" : "those jobs run") again if the daemon restarts first"
                    )
                    return ExitCode.failure
                }
                if count == 0 { return ExitCode.failure }
            case .logs(let id, let json):
                try LogsCommand.execute(id: id, json: json, client: client)
            case .setCondition(let name, let on):
                _ = try checked(client.request(DaemonRequest(type: .setCondition, name: name, on: on)))
            default:
                return ExitCode.usage
            }
            return ExitCode.success
        } catch {
            Output.error(error.description)
            return ExitCode.failure
        }
    }

    /// The `jobs --json` document.
    struct JobList: Encodable {
        var version: Int
        var jobs: [DaemonResponse.Job]
    }

    private static func checked(_ response: DaemonResponse) throws(DaemonClient.Failure) -> DaemonResponse {
        guard response.ok else {
            throw DaemonClient.Failure(description: DaemonLimits.escaped(response.error ?? "the daemon refused"))
        }
        return response
    }

    private static func submit(
        _ submission: DaemonRequest.Submission, client: DaemonClient, signals: AsyncStream<Int32>
    ) async throws(DaemonClient.Failure) -> Int32 {
        let (connection, first) = try client.send(DaemonRequest(type: .submit, submission: submission))
        guard first.ok, let id = first.id, connection >= 0 else {
            if connection >= 0 { close(connection) }
            throw DaemonClient.Failure(description: DaemonLimits.escaped(first.error ?? "the daemon refused the job"))
        }
        Output.line(id)
        guard submission.wait else {
            close(connection)
            return ExitCode.success
        }
        defer { close(connection) }
        return await SignalRace.first(
            {
                guard let outcome = await DaemonClient.readOutcome(connection) else {
                    Output.error("the daemon stopped before job \(id) ended; it runs again when the daemon restarts")
                    return ExitCode.failure
                }
                guard outcome.ok else {
                    Output.error(outcome.error ?? "the daemon stopped before job \(id) ended")
                    return ExitCode.failure
                }
                if outcome.outcome != "succeeded" {
                    Output.error("job \(id) \(outcome.outcome ?? "ended")\(outcome.error.map { ": \($0)" } ?? "")")
                }
                return outcome.exitStatus ?? ExitCode.failure
            },
            {
                for await signal in signals {
                    // The job stays queued; only the wait ends.
                    shutdown(connection, Int32(SHUT_RDWR))
                    return ExitCode.signaled(signal)
                }
                return nil
            },
            otherwise: ExitCode.failure)
    }

    /// The table of `syncgate jobs`.
    static func jobTable(_ jobs: [DaemonResponse.Job]) -> String {
        guard !jobs.isEmpty else { return "no jobs" }
        let rows =
            [["ID", "NAME", "STATE", "ATTEMPT", "RUNS", "LAST EXIT", "WAITING FOR"]]
            + jobs.map { job in
                [
                    job.id, job.name, job.state, String(job.attempts), job.runs.map(String.init) ?? "-",
                    job.lastExitStatus.map(String.init) ?? "-",
                    job.waitingFor.isEmpty ? "-" : job.waitingFor.joined(separator: ","),
                ].map(DaemonLimits.escaped)
            }
        let widths = (0..<7).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, text in
                column == 6 ? text : text + String(repeating: " ", count: widths[column] - text.count)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }

    /// The first line `syncgate logs` prints for a run: its number, attempt, start and end.
    static func runHeader(_ run: DaemonResponse.Run) -> String {
        let end: String
        if run.endedAt == nil {
            end = "running"
        } else if run.interrupted {
            end = "interrupted" + (run.exitStatus.map { ", exit status \($0)" } ?? "")
        } else {
            end = "exit status " + (run.exitStatus.map(String.init) ?? "?")
        }
        let dropped = run.outputDropped == true ? " (output dropped: only the newest runs' output is kept)" : ""
        return "=== run \(run.run) (attempt \(run.attempt)), started \(run.startedAt): \(end)\(dropped)\n"
    }
}
