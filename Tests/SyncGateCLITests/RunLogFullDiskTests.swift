#if os(Linux)
    import Foundation
    import Glibc
    import Testing

    @testable import SyncGateCLI

    /// The run log on a full disk (a tmpfs filled up): a line of `runs.jsonl` that cannot be written
    /// leaves no torn line in the file, and the run it records still reads from the daemon's memory until
    /// the line is written, before the job's next one. Needs root (a tmpfs); skips elsewhere unless
    /// `SYNCGATE_REQUIRE_TMPFS=1`.
    @Suite(.enabled(if: FullTmpfs.isEnabled, FullTmpfs.skipComment), .timeLimit(.minutes(1)))
    struct RunLogFullDiskTests {
        static let job = ShellJob(command: ["sh", "-c", "exit 3"], workingDirectory: "/", name: "sh")

        /// The lines of `runs.jsonl`, each decoded as a JSON object (a line that does not decode fails).
        static func lines(_ log: RunLog, id: String) throws -> [[String: Any]] {
            let data = try Data(contentsOf: URL(fileURLWithPath: log.directory + "/\(id)/runs.jsonl"))
            return try data.split(separator: UInt8(ascii: "\n")).map {
                try #require(try JSONSerialization.jsonObject(with: Data($0)) as? [String: Any])
            }
        }

        /// A run neither of whose lines can be written: its exit status, its number and its record are
        /// still what the log answers, the next run gets the next number, and once there is room the
        /// lines are written, in order, before the next one.
        @Test func aRunThatCannotBeWrittenIsKeptUntilThereIsRoom() throws {
            let disk = try FullTmpfs(bytes: 256 << 10)
            let log = try RunLog(directory: disk.path + "/runs")
            try log.recordJob(id: "j#1", Self.job)
            let filler = try disk.fill()
            let run = log.startRun(id: "j#1", attempt: 1)
            #expect(run == 1)
            log.endRun(id: "j#1", run: run, exitStatus: 3, interrupted: false)
            #expect(log.lastExitStatus(id: "j#1") == 3)
            #expect(log.runCount(id: "j#1") == 1)
            let runs = try #require(log.runs(id: "j#1"))
            #expect(runs.map(\.run) == [1])
            #expect(runs.first?.exitStatus == 3 && runs.first?.endedAt != nil)
            #expect(try Self.lines(log, id: "j#1").isEmpty)
            #expect(log.startRun(id: "j#1", attempt: 2) == 2)

            unlink(filler)
            log.endRun(id: "j#1", run: 2, exitStatus: 0, interrupted: false)
            let lines = try Self.lines(log, id: "j#1")
            #expect(lines.map { $0["event"] as? String } == ["started", "ended", "started", "ended"])
            #expect(lines.map { $0["run"] as? Int } == [1, 1, 2, 2])
            // Another run log on the directory (a restarted daemon) reads the same from the file.
            let reread = try RunLog(directory: disk.path + "/runs")
            #expect(reread.runs(id: "j#1")?.map(\.exitStatus) == [3, 0])
        }

        /// A line the disk has room for only part of: what was written of it is cut off again, so no torn
        /// line is left to be skipped as damaged later, and the line is written whole once there is room.
        @Test func aLineCutShortByAFullDiskLeavesNoTornLine() throws {
            let disk = try FullTmpfs(bytes: 256 << 10)
            let log = try RunLog(directory: disk.path + "/runs")
            try log.recordJob(id: "t#1", Self.job)
            // A start line padded to 20 bytes short of a page: the page holds only 20 bytes more.
            let head = #"{"event":"started","run":1,"attempt":1,"at":"2024-01-01T00:00:00Z","pad":""#
            let tail = "\"}\n"
            let padding = String(repeating: "x", count: 4096 - 20 - head.utf8.count - tail.utf8.count)
            let path = log.directory + "/t#1/runs.jsonl"
            try Data((head + padding + tail).utf8).write(to: URL(fileURLWithPath: path))
            let filler = try disk.fill()
            log.endRun(id: "t#1", run: 1, exitStatus: 3, interrupted: false)
            var info = stat()
            #expect(stat(path, &info) == 0 && info.st_size == 4096 - 20)
            #expect(log.lastExitStatus(id: "t#1") == 3)

            unlink(filler)
            #expect(log.startRun(id: "t#1", attempt: 2) == 2)
            let lines = try Self.lines(log, id: "t#1")
            #expect(lines.map { $0["event"] as? String } == ["started", "ended", "started"])
            #expect(try RunLog(directory: disk.path + "/runs").lastExitStatus(id: "t#1") == 3)
        }
    }
#endif
