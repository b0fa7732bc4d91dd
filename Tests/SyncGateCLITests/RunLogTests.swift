import Foundation
import SyncGateCLI
import Testing

/// The daemon's run log on disk: runs cut short by the daemon's death, the retention of old records,
/// the bounds of what a job keeps, and the stream `logs` reads.
@Suite(.timeLimit(.minutes(1)))
struct RunLogTests {
    /// Runs of one job whose stdout and stderr each hold `bytes`, and the runs whose output `trim` keeps.
    struct Bounds: Sendable, CustomTestStringConvertible {
        var runs: Int
        var bytes: Int
        var kept: ClosedRange<Int>
        var testDescription: String { "\(runs) runs of 2 × \(bytes) bytes keep runs \(kept)" }
    }

    static let bounds: [Bounds] = [
        Bounds(runs: 3, bytes: 100, kept: 1...3),
        Bounds(runs: 12, bytes: 100, kept: 3...12),
        // 2 MiB a run: 8 runs fill the 16 MiB.
        Bounds(runs: 12, bytes: 1 << 20, kept: 5...12),
        // Over 16 MiB in one run: that newest run stays alone.
        Bounds(runs: 2, bytes: 9 << 20, kept: 2...2),
    ]

    /// Records `count` ended runs of `id`, each writing `bytes` to stdout and to stderr.
    private func record(_ count: Int, bytes: Int, id: String, in log: RunLog) throws {
        try log.recordJob(id: id, ShellJob(command: ["true"], workingDirectory: "/", name: id))
        for _ in 0..<count {
            let run = log.startRun(id: id, attempt: 1)
            let paths = log.outputPaths(id: id, run: run)
            let data = Data(repeating: 0, count: bytes)
            try data.write(to: URL(fileURLWithPath: paths.stdout))
            try data.write(to: URL(fileURLWithPath: paths.stderr))
            log.endRun(id: id, run: run, exitStatus: 1, interrupted: false)
        }
    }

    @Test(arguments: bounds)
    func aJobKeepsTheNewestRunsOutputWithinItsBounds(bounds: Bounds) throws {
        try withLog { log in
            try record(bounds.runs, bytes: bounds.bytes, id: "j#1", in: log)
            let runs = try #require(log.runs(id: "j#1"))
            #expect(runs.map(\.run) == Array(1...bounds.runs))
            for run in runs {
                let paths = log.outputPaths(id: "j#1", run: run.run)
                let kept = bounds.kept.contains(run.run)
                #expect(FileManager.default.fileExists(atPath: paths.stdout) == kept, "run \(run.run)")
                #expect(FileManager.default.fileExists(atPath: paths.stderr) == kept, "run \(run.run)")
                #expect(run.outputDropped == (kept ? nil : true), "run \(run.run)")
                #expect(run.stdout.isEmpty == !kept, "run \(run.run)")
            }
        }
    }

    @Test func aJobKeepsTheRecordsOfItsNewest1000Runs() throws {
        try withLog { log in
            try log.recordJob(id: "j#1", ShellJob(command: ["true"], workingDirectory: "/", name: "j"))
            let lines = (1...2_001).map { run in
                #"{"event":"started","run":\#(run),"attempt":1,"at":"2026-01-01T00:00:00.000Z"}"# + "\n"
                    + #"{"event":"ended","run":\#(run),"at":"2026-01-01T00:00:01.000Z","exitStatus":1}"# + "\n"
            }.joined()
            try Data(lines.utf8).write(to: URL(fileURLWithPath: log.directory + "/j#1/runs.jsonl"))
            log.trim(id: "j#1")
            let runs = try #require(log.runs(id: "j#1"))
            #expect(runs.map(\.run) == Array(1_002...2_001))
            let allFailed = runs.allSatisfy { $0.exitStatus == 1 }
            #expect(allFailed)
            #expect(log.runCount(id: "j#1") == 2_001)
            #expect(log.startRun(id: "j#1", attempt: 1) == 2_002)
        }
    }

    /// A line of `runs.jsonl` is the daemon's own record, but a damaged disk or a hand edit can leave any
    /// number there: the next run's number was the largest plus one, and `Int.max` trapped the daemon at
    /// that job's next run (and `Int.min` in the trim).
    @Test(arguments: [Int.max, Int.min, 0, -5])
    func aRunNumberOutOfRangeIsSkipped(run: Int) throws {
        try withLog { log in
            try log.recordJob(id: "r#1", ShellJob(command: ["true"], workingDirectory: "/", name: "r"))
            let lines =
                #"{"event":"started","run":1,"attempt":1,"at":"2026-01-01T00:00:00.000Z"}"# + "\n"
                + #"{"event":"ended","run":1,"at":"2026-01-01T00:00:01.000Z","exitStatus":0}"# + "\n"
                + #"{"event":"started","run":\#(run),"attempt":2,"at":"2026-01-01T00:00:02.000Z"}"# + "\n"
            try Data(lines.utf8).write(to: URL(fileURLWithPath: log.directory + "/r#1/runs.jsonl"))
            #expect(log.startRun(id: "r#1", attempt: 2) == 2)
            log.endRun(id: "r#1", run: 2, exitStatus: 0, interrupted: false)
            #expect(try #require(log.runs(id: "r#1")).map(\.run) == [1, 2])
        }
    }

    /// A crash while the daemon wrote a line leaves it cut short, without its newline: the next record
    /// was appended to it, the two read as one damaged line and were both skipped, and the next run took
    /// the number of the run that record started (overwriting its output).
    @Test func aLineCutShortByACrashLosesNoOtherRecord() throws {
        try withLog { log in
            try log.recordJob(id: "t#1", ShellJob(command: ["true"], workingDirectory: "/", name: "t"))
            let lines =
                #"{"event":"started","run":1,"attempt":1,"at":"2026-01-01T00:00:00.000Z"}"# + "\n"
                + #"{"event":"ended","run":1,"at":"2026-01-"#
            try Data(lines.utf8).write(to: URL(fileURLWithPath: log.directory + "/t#1/runs.jsonl"))
            let run = log.startRun(id: "t#1", attempt: 2)
            #expect(run == 2)
            #expect(log.startRun(id: "t#1", attempt: 3) == 3)
            #expect(try #require(log.runs(id: "t#1")).map(\.run) == [1, 2, 3])
        }
    }

    /// A job's record that cannot be written (a full disk cut it short) refuses the submission, which
    /// must leave nothing behind: the job's directory stayed, with an empty record, and `logs` of the id
    /// answered as if the job existed.
    @Test func aRecordThatCannotBeWrittenLeavesNoDirectory() throws {
        try withLog { log in
            // A directory where the record goes: the write fails, as it does on a full disk.
            try FileManager.default.createDirectory(
                atPath: log.directory + "/w#1/job.json", withIntermediateDirectories: true)
            let recorded: Void? = try? log.recordJob(
                id: "w#1", ShellJob(command: ["true"], workingDirectory: "/", name: "w"))
            #expect(recorded == nil, "recording a job whose record cannot be written succeeded")
            #expect(!FileManager.default.fileExists(atPath: log.directory + "/w#1"))
        }
    }

    @Test func theStreamCarriesEveryByteInBase64Chunks() throws {
        try withLog { log in
            try log.recordJob(id: "s#1", ShellJob(command: ["true"], workingDirectory: "/", name: "s"))
            let outputs: [[UInt8]] = [[0, 1, 2, 0xFF, 10], (0..<100_000).map { UInt8(truncatingIfNeeded: $0) }]
            for output in outputs {
                let run = log.startRun(id: "s#1", attempt: 1)
                try Data(output).write(to: URL(fileURLWithPath: log.outputPaths(id: "s#1", run: run).stdout))
                try Data(output.reversed()).write(to: URL(fileURLWithPath: log.outputPaths(id: "s#1", run: run).stderr))
                log.endRun(id: "s#1", run: run, exitStatus: 0, interrupted: false)
            }
            var raw: [[UInt8]] = []
            let complete = log.stream(id: "s#1") { bytes in
                raw.append(bytes)
                return true
            }
            #expect(complete)
            let everyLineEnds = raw.allSatisfy { $0.last == 10 && !$0.dropLast().contains(10) }
            #expect(everyLineEnds)
            let longest = raw.map(\.count).max() ?? 0
            let lines = try raw.map { try JSONDecoder().decode(LogStreamLine.self, from: Data($0.dropLast())) }
            #expect(longest < 70_000)
            #expect(lines.last == LogStreamLine(end: 2))
            for (index, output) in outputs.enumerated() {
                let run = index + 1
                let announced = lines.contains { $0.run?.run == run && $0.run?.stdout == "" }
                #expect(announced)
                let chunks = lines.compactMap(\.output).filter { $0.run == run }
                let stdout = chunks.filter { $0.stream == "stdout" }.flatMap {
                    Data(base64Encoded: $0.base64) ?? Data()
                }
                let stderr = chunks.filter { $0.stream == "stderr" }.flatMap {
                    Data(base64Encoded: $0.base64) ?? Data()
                }
                #expect(stdout == output)
                #expect(stderr == output.reversed())
            }
            // A reader that goes away stops the stream.
            var taken = 0
            let finished = log.stream(id: "s#1") { _ in
                taken += 1
                return taken < 2
            }
            #expect(!finished)
            #expect(taken == 2)
        }
    }

    private func withLog(_ body: (RunLog) throws -> Void) throws {
        let directory = NSTemporaryDirectory() + "syncgate-runlog-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try body(try RunLog(directory: directory + "/runs"))
    }

    @Test func aRunWithoutAnEndIsRecordedAsInterruptedOnce() throws {
        try withLog { log in
            try log.recordJob(id: "a#1", ShellJob(command: ["true"], workingDirectory: "/", name: "a"))
            let run = log.startRun(id: "a#1", attempt: 1)
            #expect(run == 1)
            #expect(log.closeInterruptedRuns() == 1)
            #expect(log.closeInterruptedRuns() == 0)
            let runs = try #require(log.runs(id: "a#1"))
            #expect(runs.count == 1)
            #expect(runs[0].interrupted)
            #expect(runs[0].exitStatus == nil)
            #expect(log.startRun(id: "a#1", attempt: 1) == 2)
            log.endRun(id: "a#1", run: 2, exitStatus: 0, interrupted: false)
            #expect(log.lastExitStatus(id: "a#1") == 0)
            #expect(log.job(id: "a#1")?.name == "a")
        }
    }

    @Test(arguments: ["", ".", "..", "../x", "a/b", ".hidden"])
    func unsafeIDsNameNoRecord(id: String) throws {
        try withLog { log in
            #expect(log.runs(id: id) == nil)
            #expect(log.job(id: id) == nil)
        }
    }

    @Test func pruneRemovesOnlyOldRecordsOfJobsThatAreGone() throws {
        try withLog { log in
            for id in ["old#1", "old#2", "new#1"] {
                try log.recordJob(id: id, ShellJob(command: ["true"], workingDirectory: "/", name: id))
            }
            let later = Date().addingTimeInterval(31 * 86_400)
            #expect(log.prune(keeping: ["old#2"], now: Date()) == 0)
            #expect(log.prune(keeping: ["old#2"], now: later) == 2)
            #expect(log.job(id: "old#1") == nil)
            #expect(log.job(id: "old#2") != nil)
        }
    }
}
