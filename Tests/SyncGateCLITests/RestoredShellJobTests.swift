#if os(Linux)
    import Foundation
    import SyncGate
    @testable import SyncGateCLI
    import SyncGateTestSupport
    import SyncGateTesting
    import Testing

    /// A restored shell job whose stored payload cannot run (written by hand, by a damaged program or by an
    /// older daemon: restored payloads are decoded, never checked as a submission is) fails at its first
    /// attempt, not retried, with an error naming the field and the value; the daemon's handler never traps
    /// on it. The daemon's own handler (``ShellJobRunner/register(on:after:)``) on a durable scheduler and a
    /// `FileJobStore`, a ManualClock and a ManualSyncEnvironment; a valid payload runs a real command.
    @Suite(.timeLimit(.minutes(1)), .startsProcesses)
    struct RestoredShellJobTests {
        /// A stored payload, and the start of the error its job fails with (`nil`: it runs and succeeds).
        static let table: [(String, String?)] = [
            (
                #"{"command":[],"workingDirectory":"/","name":"x"}"#,
                "field 'payload.command' must name a command, got []"
            ),
            (
                #"{"command":[""],"workingDirectory":"/","name":"x"}"#,
                #"field 'payload.command' must name a command, got [""]"#
            ),
            (
                #"{"command":["true"],"workingDirectory":"tmp","name":"x"}"#,
                "field 'payload.workingDirectory' must be an absolute path, got 'tmp'"
            ),
            (
                #"{"command":["true"],"workingDirectory":"","name":"x"}"#,
                "field 'payload.workingDirectory' must be an absolute path, got ''"
            ),
            (
                #"{"command":["true","a\u0000b"],"workingDirectory":"/","name":"x"}"#,
                "invalid argument 1 of field 'payload.command': must not contain a NUL byte"
            ),
            (
                #"{"command":["true"],"workingDirectory":"/\u0000","name":"x"}"#,
                "invalid field 'payload.workingDirectory': must not contain a NUL byte"
            ),
            (#"{"command":["true"],"workingDirectory":"/","name":"x"}"#, nil),
        ]

        @Test(arguments: table)
        func aStoredPayloadThatCannotRunFailsTheJob(payload: String, expected: String?) async throws {
            let directory = NSTemporaryDirectory() + "syncgate-restored-\(UUID().uuidString)"
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let options = SyncJobOptions(requires: [], retry: .fixed(delay: .seconds(1), maxAttempts: 3))
            let first = try FileJobStore(directory: directory + "/jobs")
            try first.append(
                .submitted(
                    StoredJob(
                        sequence: 1, id: "job", kind: ShellJob.kind, payload: Data(payload.utf8),
                        submittedAt: Date(), options: options)))
            try first.close()

            let runLog = try RunLog(directory: directory + "/runs")
            try runLog.recordJob(id: "job", ShellJob(command: ["true"], workingDirectory: "/", name: "x"))
            let lines = LockedState<[String]>([])
            let runner = ShellJobRunner(
                runLog: runLog, killGrace: .seconds(1), log: { line in lines.withLock { $0.append(line) } })
            let clock = ManualClock()
            let manual = ManualSyncEnvironment(clock: clock)
            let scheduler = SyncScheduler(environment: manual.environment, clock: clock)
            let store = try FileJobStore(directory: directory + "/jobs")
            let durable = DurableScheduler(scheduler: scheduler, store: store)
            let gate = StartGate()
            try runner.register(on: durable, after: gate)
            let report = try durable.restoreJobs()
            gate.open()
            let handle = try #require(report.restored.first)
            let outcome = try await handle.outcome()

            if let expected {
                guard case .failed(let error) = outcome else {
                    Issue.record("expected a failure, got \(outcome)")
                    return
                }
                #expect("\(error)".hasPrefix("the stored job cannot run: \(expected)"))
                #expect(scheduler.job(id: "job")?.attempts == 1)
                #expect(lines.withLock { $0 }.contains { $0.contains("job job (x)") && $0.contains(expected) })
                #expect(runLog.runs(id: "job")?.isEmpty != false)
            } else {
                #expect(outcome == .succeeded)
            }
            _ = await durable.shutdown(gracePeriod: .zero)
            // The job ended for good: the next daemon does not restore it.
            let reopened = try FileJobStore(directory: directory + "/jobs")
            #expect(try reopened.load().jobs.isEmpty)
            try reopened.close()
        }
    }
#endif
