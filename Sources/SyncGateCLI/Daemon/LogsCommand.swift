import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `syncgate logs [--json] ID`: asks the daemon for the job's runs as a stream (``LogStreamLine``) and
/// prints each run as it arrives, holding at most one run's output at a time.
///
/// The text form writes each run's header line and its stdout and stderr bytes as the command wrote
/// them. The JSON form prints the one-line `logs` response (`{"id":…,"ok":true,"runs":[…],"version":1}`),
/// each run's output decoded as UTF-8 (invalid bytes replaced).
package struct LogsCommand: Subcommand {
    /// `logs`.
    package static let name = "logs"
    /// The row under USAGE.
    package static let synopsis = "syncgate logs [--json] ID"
    /// The summary under USAGE.
    package static let summary = "a job's runs and their output"
    /// `--json`.
    package static let options = [CommandLineOption("--json")]
    /// The job's id.
    package static let operands = CommandLineOperands.arguments

    /// The help of `syncgate logs`.
    package static func help(_ sections: HelpText.Sections) -> String {
        """
        USAGE: syncgate logs [--json] ID

        Prints every run of job ID: when it started, how it ended, its stdout and stderr (each
        kept up to 1 MiB per run). Kept across daemon restarts. An ID that names no job: one line
        on stderr ("no job with id 'ID'") and exit 1.
        """
    }

    /// The job's id.
    package var id: String
    /// Whether to print the one-line JSON response instead of text.
    package var json: Bool

    /// Creates the invocation.
    package init(id: String, json: Bool = false) {
        self.id = id
        self.json = json
    }

    /// Reads the job's id (needed, alone) and `--json`.
    package init(parsing arguments: ParsedArguments) throws(UsageError) {
        guard let id = arguments.operands.first, !id.isEmpty else { throw UsageError("'logs' needs a job ID") }
        if arguments.operands.count > 1 {
            throw UsageError("unexpected argument '\(arguments.operands[1])' for 'logs'")
        }
        self.init(id: id, json: arguments.flag("--json"))
    }

    /// Prints the job's runs as the daemon streams them.
    package func run() async -> Int32 {
        await DaemonClient.session { client, _ throws(DaemonClient.Failure) in
            try Self.execute(id: id, json: json, client: client)
            return ExitCode.success
        }
    }

    /// The longest line accepted from the daemon: a 64 KiB chunk with room for its fields.
    static let lineLimit = 1 << 20

    /// Prints the job's runs; throws when the daemon refuses or the stream ends early.
    static func execute(id: String, json: Bool, client: DaemonClient) throws(DaemonClient.Failure) {
        let (connection, first) = try client.send(.logs(id: id, stream: true))
        defer { if connection >= 0 { close(connection) } }
        guard first.ok, connection >= 0 else {
            throw DaemonClient.Failure(description: first.error ?? "the daemon refused")
        }
        if first.runs != nil {
            // A daemon that does not stream answered in one line.
            print(runs: first.runs ?? [], id: id, json: json)
            return
        }
        if json { Output.write("{\"id\":\(quoted(id)),\"ok\":true,\"runs\":[") }
        var current: DaemonResponse.Run?
        var stdout: [UInt8] = []
        var stderr: [UInt8] = []
        var count = 0
        func flush() {
            guard var run = current else { return }
            if json {
                run.stdout = String(decoding: stdout, as: UTF8.self)
                run.stderr = String(decoding: stderr, as: UTF8.self)
                let line = DaemonProtocol.encodeLine(run).dropLast()
                Output.write((count > 0 ? "," : "") + String(decoding: line, as: UTF8.self))
            } else {
                Output.write(Self.runHeader(run))
                writeSection("stdout", stdout)
                writeSection("stderr", stderr)
            }
            count += 1
            current = nil
            stdout = []
            stderr = []
        }
        while true {
            let bytes: [UInt8]
            let line: LogStreamLine
            do {
                bytes = try DaemonSocket.readLine(
                    connection, limit: lineLimit, until: .now + DaemonClient.answerDeadline)
                line = try JSONDecoder().decode(LogStreamLine.self, from: Data(bytes))
            } catch {
                flush()
                throw DaemonClient.Failure(description: "the daemon's log of job \(id) was cut short: \(error)")
            }
            if let run = line.run {
                flush()
                current = run
            } else if let chunk = line.output, chunk.run == current?.run,
                let data = Data(base64Encoded: chunk.base64)
            {
                if chunk.stream == "stderr" { stderr += data } else { stdout += data }
            } else if line.end != nil {
                flush()
                break
            }
        }
        if json { Output.write("],\"version\":\(DaemonProtocol.version)}\n") }
    }

    private static func quoted(_ text: String) -> String {
        String(decoding: DaemonProtocol.encodeLine([text]).dropLast().dropFirst().dropLast(), as: UTF8.self)
    }

    private static func print(runs: [DaemonResponse.Run], id: String, json: Bool) {
        if json {
            Output.write(
                String(decoding: DaemonProtocol.encodeLine(DaemonResponse(ok: true, id: id, runs: runs)), as: UTF8.self)
            )
        } else {
            for run in runs {
                Output.write(Self.runHeader(run))
                writeSection("stdout", Array(run.stdout.utf8))
                writeSection("stderr", Array(run.stderr.utf8))
            }
        }
    }

    /// Writes `--- NAME` and the bytes, ending in a newline; nothing for no bytes.
    private static func writeSection(_ name: String, _ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        Output.writeBytes(Array("--- \(name)\n".utf8) + bytes + (bytes.last == UInt8(ascii: "\n") ? [] : [10]))
    }

    /// The first line `syncgate logs` prints for a run: its number, attempt, start and end.
    static func runHeader(_ run: DaemonResponse.Run) -> String {
        let end: String
        if run.endedAt == nil {
            end = "running"
        } else if run.interrupted {
            end =
                "interrupted" + (run.stopReason.map { " (\($0))" } ?? "")
                + (run.exitStatus.map { ", exit status \($0)" } ?? "")
        } else {
            end = "exit status " + (run.exitStatus.map(String.init) ?? "?")
        }
        let dropped = run.outputDropped == true ? " (output dropped: only the newest runs' output is kept)" : ""
        return "=== run \(run.run) (attempt \(run.attempt)), started \(run.startedAt): \(end)\(dropped)\n"
    }
}
