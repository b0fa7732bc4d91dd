import Foundation

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
    }

    struct NotBuilt: Error, CustomStringConvertible {
        var description: String { "the syncgate executable was not found: run `swift build` first or set SYNCGATE_CLI" }
    }

    private final class Box: @unchecked Sendable {
        var data = Data()
    }

    /// Runs `syncgate` with `arguments`; with `signalAfterFirstLine`, sends that signal to it once its
    /// first line of stdout has arrived.
    ///
    /// A run that has not ended after `deadline` is killed with SIGKILL (status 137), so a hung tool fails
    /// its test instead of hanging the suite.
    static func run(
        _ arguments: [String],
        environment: [String: String]? = nil,
        signalAfterFirstLine: Int32? = nil,
        deadline: Duration = .seconds(30)
    ) async throws -> Result {
        guard let path else { throw NotBuilt() }
        return try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: path)
                process.arguments = arguments
                if let environment {
                    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
                }
                let output = Pipe()
                let errors = Pipe()
                process.standardOutput = output
                process.standardError = errors
                process.standardInput = FileHandle.nullDevice
                let start = ContinuousClock.now
                do {
                    try process.run()
                } catch {
                    continuation.resume(throwing: error)
                    return
                }
                let pid = process.processIdentifier
                let finished = DispatchSemaphore(value: 0)
                Thread.detachNewThread {
                    let (seconds, attoseconds) = deadline.components
                    let timeout = DispatchTime.now() + Double(seconds) + Double(attoseconds) / 1e18
                    if finished.wait(timeout: timeout) == .timedOut { kill(pid, SIGKILL) }
                }
                let errorBox = Box()
                let errorsRead = DispatchSemaphore(value: 0)
                Thread.detachNewThread {
                    errorBox.data = errors.fileHandleForReading.readDataToEndOfFile()
                    errorsRead.signal()
                }
                var stdout = Data()
                var signalled = signalAfterFirstLine == nil
                while true {
                    let chunk = output.fileHandleForReading.availableData
                    if chunk.isEmpty { break }
                    stdout.append(chunk)
                    if !signalled, stdout.contains(UInt8(ascii: "\n")), let signal = signalAfterFirstLine {
                        kill(process.processIdentifier, signal)
                        signalled = true
                    }
                }
                errorsRead.wait()
                // Both pipes are at their end: the tool has exited, so its id is not killed after reuse.
                finished.signal()
                process.waitUntilExit()
                continuation.resume(
                    returning: Result(
                        status: process.terminationStatus,
                        stdout: String(decoding: stdout, as: UTF8.self),
                        stderr: String(decoding: errorBox.data, as: UTF8.self),
                        elapsed: ContinuousClock.now - start
                    )
                )
            }
        }
    }
}
