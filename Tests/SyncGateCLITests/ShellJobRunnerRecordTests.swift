#if os(Linux)
    import Foundation
    import SyncGate
    @testable import SyncGateCLI
    import SyncGateTestSupport
    import SyncGateTesting
    import Testing

    /// A daemon's command runs only once its run is recorded in `RunningCommands`: when the record cannot
    /// be written, the launcher is held at its gate and ended, the command never runs, and the attempt
    /// fails with `StartFailed`, logged with the reason. The runner with the built `syncgate` as its
    /// launcher, on a ManualClock and a ManualSyncEnvironment; the record is made impossible for root
    /// too, by a directory where a file of the record is to go.
    @Suite(.timeLimit(.minutes(1)), .startsProcesses)
    struct ShellJobRunnerRecordTests {
        /// What stands in the `running` directory before the run, and the start of the reason the attempt
        /// fails with (`nil`: the record is written and the command runs).
        static let table: [(String, String?)] = [
            ("nothing", nil),
            ("a directory named as the record's temporary file", "cannot create "),
            ("a directory, not empty, named as the record", "cannot rename "),
        ]

        @Test(arguments: table)
        func aRunThatCannotBeRecordedNeverRuns(obstacle: String, expected: String?) async throws {
            let tool = try #require(ToolProcess.path, "the syncgate executable was not found")
            let directory = NSTemporaryDirectory() + "syncgate-record-\(UUID().uuidString)"
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let runLog = try RunLog(directory: directory + "/runs")
            let running = try RunningCommands(directory: directory + "/running")
            let record = running.directory + "/job.json"
            if obstacle.contains("temporary") {
                try FileManager.default.createDirectory(atPath: record + ".new", withIntermediateDirectories: false)
            } else if obstacle.contains("not empty") {
                try FileManager.default.createDirectory(atPath: record + "/kept", withIntermediateDirectories: true)
            }
            let marker = directory + "/ran"
            let shellJob = ShellJob(
                command: ["sh", "-c", #"echo ran > "$1""#, "sh", marker], workingDirectory: "/", name: "sh")
            try runLog.recordJob(id: "job", shellJob)
            let lines = LockedState<[String]>([])
            let runner = ShellJobRunner(
                runLog: runLog, killGrace: .seconds(1), log: { line in lines.withLock { $0.append(line) } },
                launcher: tool, running: running)
            let clock = ManualClock()
            let manual = ManualSyncEnvironment(clock: clock)
            let scheduler = SyncScheduler(environment: manual.environment, clock: clock)
            let handle = try scheduler.submit(
                SyncJob(id: "job", requires: .none) { context in try await runner.run(shellJob, context: context) })
            let outcome = try await handle.outcome()
            let run = try #require(runLog.runs(id: "job")?.first)
            #expect(running.records().isEmpty)
            // A run that could not be recorded ended once its launcher had been reaped: its command never ran.
            #expect(FileManager.default.fileExists(atPath: marker) == (expected == nil))

            guard let expected else {
                #expect(outcome == .succeeded)
                #expect(run.exitStatus == 0)
                return
            }
            guard case .failed(let error) = outcome, let failure = error as? ShellJobRunner.StartFailed else {
                Issue.record("expected StartFailed, got \(outcome)")
                return
            }
            #expect(failure.reason.hasPrefix("the run could not be recorded: \(expected)"))
            #expect(failure.reason.contains("Is a directory"))
            #expect(run.exitStatus == nil)
            #expect(!run.interrupted)
            #expect(run.stderr.contains("syncgate: the command could not start: \(failure.reason)"))
            #expect(lines.withLock { $0 }.contains { $0.contains("job job (sh) run 1") && $0.contains(failure.reason) })
            #expect(!lines.withLock { $0 }.contains { $0.contains("started, attempt") })
            if obstacle.contains("not empty") {
                #expect(!FileManager.default.fileExists(atPath: record + ".new"))
            }
        }
    }
#endif
