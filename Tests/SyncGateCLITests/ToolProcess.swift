import Foundation
import SyncGateTesting

/// Runs the built `syncgate` binary and collects its exit status and output.
enum ToolProcess {
    /// `$SYNCGATE_CLI`, else `syncgate` next to the test bundle in the build folder.
    static let path: String? = {
        if let path = ProcessInfo.processInfo.environment["SYNCGATE_CLI"] { return path }
        guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
            return nil
        }
        var directory = URL(fileURLWithPath: executable).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("syncgate").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            directory.deleteLastPathComponent()
        }
        return nil
    }()

    /// What a run produced.
    struct Result: Sendable {
        var status: Int32
        var stdout: String
        var stderr: String
        var elapsed: Duration
        /// The names of the tool's threads (`/proc/PID/task/*/comm`) when its first line arrived; read only
        /// with `signalAfterFirstLine`, just before the signal.
        var threadNames: [String] = []
    }

    struct NotBuilt: Error, CustomStringConvertible {
        var description: String { "the syncgate executable was not found: run `swift build` first or set SYNCGATE_CLI" }
    }

    /// Runs `syncgate` with `arguments`; with `signalAfterFirstLine`, sends that signal to it once its
    /// first line of stdout has arrived; with `closeOutputAfterFirstLine`, closes its stdout's read end
    /// then instead, as a reader that stops reading does.
    ///
    /// The tool is started with `posix_spawn` and reaped with `waitpid` (``SpawnedProcess``), never with
    /// Foundation's `Process`, whose wait never returns inside a network namespace without loopback. A run
    /// that has not ended after `deadline` is killed and fails with ``SpawnedProcess/Failure``, so a hung
    /// tool fails its test instead of hanging the suite. The blocking reads run on a thread of their own,
    /// not on the cooperative pool.
    static func run(
        _ arguments: [String],
        environment: [String: String]? = nil,
        signalAfterFirstLine: Int32? = nil,
        closeOutputAfterFirstLine: Bool = false,
        deadline: Duration = .seconds(30)
    ) async throws -> Result {
        guard let path else { throw NotBuilt() }
        return try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(
                    with: Swift.Result {
                        try runToEnd(
                            path, arguments, environment: environment ?? [:],
                            signalAfterFirstLine: signalAfterFirstLine,
                            closeOutputAfterFirstLine: closeOutputAfterFirstLine, deadline: deadline)
                    })
            }
        }
    }

    /// The names of a process's threads, sorted.
    static func threadNames(of pid: pid_t) -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.compactMap { task in
            (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .newlines)
        }.sorted()
    }

    private static func runToEnd(
        _ path: String, _ arguments: [String], environment: [String: String], signalAfterFirstLine: Int32?,
        closeOutputAfterFirstLine: Bool, deadline: Duration
    ) throws -> Result {
        let start = ContinuousClock.now
        let end = start + deadline
        let process = try SpawnedProcess(path, arguments, environment: environment)
        defer { process.stop() }
        process.closeInput()
        var stdout = ""
        var threadNames: [String] = []
        if signalAfterFirstLine != nil || closeOutputAfterFirstLine {
            guard let first = try process.nextLine(before: end) else {
                throw SpawnedProcess.Failure(message: "\(process.commandLine) printed no line within \(deadline)")
            }
            stdout = first + "\n"
            threadNames = Self.threadNames(of: process.pid)
            if let signal = signalAfterFirstLine { process.signal(signal) }
            if closeOutputAfterFirstLine { process.closeOutput() }
        }
        let (rest, status) = try process.finish(before: end)
        return Result(
            status: status, stdout: stdout + rest, stderr: process.stderrText, elapsed: ContinuousClock.now - start,
            threadNames: threadNames)
    }
}
