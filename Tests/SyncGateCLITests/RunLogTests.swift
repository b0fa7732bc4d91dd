import Foundation
import SyncGateCLI
import Testing

/// The daemon's run log on disk: runs cut short by the daemon's death, and the retention of old records.
struct RunLogTests {
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
