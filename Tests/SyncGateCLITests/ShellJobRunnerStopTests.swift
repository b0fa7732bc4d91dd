#if os(Linux)
    import Foundation
    import SyncGate
    @testable import SyncGateCLI
    import SyncGateTesting
    import Testing

    /// A daemon's command learns why it is stopped: the reason is in `$SYNCGATE_STOP_REASON_FILE` when
    /// its SIGTERM handler runs, and the run's stderr log and record keep it. Real commands, on a
    /// ManualClock and a ManualSyncEnvironment.
    @Suite(.timeLimit(.minutes(1)))
    struct ShellJobRunnerStopTests {
        /// How each stop reaches the command; the library's own tests (`StopReasonTests`) cover every
        /// reason reaching a job's body, these that the daemon hands one on to a command.
        static let table: [(String, SyncJobStopReason)] = [
            ("cancel", .cancelled),
            ("lose the network", .requirementsLost(.network, conditions: [])),
            ("time out", .timedOut),
            ("shut down", .shutdown),
        ]

        @Test(arguments: table)
        func theCommandReadsTheReasonInItsSigtermHandler(stop: String, expected: SyncJobStopReason) async throws {
            let directory = NSTemporaryDirectory() + "syncgate-stop-\(UUID().uuidString)"
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let runLog = try RunLog(directory: directory + "/runs")
            let started = directory + "/started.fifo"
            let caught = directory + "/caught"
            guard mkfifo(started, 0o600) == 0 else { throw CocoaError(.fileWriteUnknown) }
            let script =
                #"trap 'cat "$SYNCGATE_STOP_REASON_FILE" > "$1"; exit 3' TERM; echo started > "$2"; while :; do sleep 1; done"#
            let shellJob = ShellJob(
                command: ["sh", "-c", script, "sh", caught, started], workingDirectory: "/", name: "sh")
            try runLog.recordJob(id: "job", shellJob)
            let runner = ShellJobRunner(runLog: runLog, killGrace: .seconds(20), log: { _ in })

            let clock = ManualClock()
            let manual = ManualSyncEnvironment(connectivity: .connected(via: .wifi), monitoring: [.network])
            let scheduler = SyncScheduler(environment: manual.environment, clock: clock)
            let handle = try scheduler.submit(
                SyncJob(id: "job", runTimeout: expected == .timedOut ? .seconds(5) : nil) { context in
                    try await runner.run(shellJob, context: context)
                })
            #expect(await Self.firstLine(of: started) == "started\n")

            var shutdown: Task<Void, Never>?
            if expected == .cancelled {
                handle.cancel()
            } else if expected == .timedOut {
                await clock.waitForSleepers(1)
                clock.advance(by: .seconds(5))
            } else if expected == .shutdown {
                shutdown = Task { await scheduler.shutdown(gracePeriod: .zero) }
            } else {
                manual.setConnectivity(.disconnected)
            }
            if case .requirementsLost = expected {
                _ = await handle.states.first { if case .waiting = $0 { true } else { false } }
                handle.cancel()
            }
            _ = try await handle.outcome()
            await shutdown?.value

            let line = expected.description
            #expect(
                FileManager.default.contents(atPath: caught).map { String(decoding: $0, as: UTF8.self) } == line + "\n")
            let run = try #require(runLog.runs(id: "job")?.first)
            #expect(run.exitStatus == 3)
            #expect(run.interrupted)
            #expect(run.stopReason == line)
            #expect(LogsCommand.runHeader(run).contains(": interrupted (\(line)), exit status 3\n"))
            #expect(run.stderr.contains("syncgate: stopped (\(line)): SIGTERM, then SIGKILL after 20s"))
            #expect(runLog.lastStopReason(id: "job") == line)
            #expect(!FileManager.default.fileExists(atPath: runLog.stopReasonPath(id: "job", run: 1)))
        }

        @Test func aRunThatEndsByItselfRecordsNoStopReason() async throws {
            let directory = NSTemporaryDirectory() + "syncgate-stop-\(UUID().uuidString)"
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let runLog = try RunLog(directory: directory + "/runs")
            let shellJob = ShellJob(
                command: [
                    "sh", "-c", #"test -n "$SYNCGATE_STOP_REASON_FILE" && test ! -e "$SYNCGATE_STOP_REASON_FILE""#,
                ],
                workingDirectory: "/", name: "sh")
            try runLog.recordJob(id: "job", shellJob)
            let runner = ShellJobRunner(runLog: runLog, killGrace: .seconds(20), log: { _ in })
            let manual = ManualSyncEnvironment(connectivity: .connected(via: .wifi), monitoring: [.network])
            let scheduler = SyncScheduler(environment: manual.environment, clock: ManualClock())
            let handle = try scheduler.submit(
                SyncJob(id: "job") { context in try await runner.run(shellJob, context: context) })
            #expect(try await handle.outcome().state == .succeeded)
            let run = try #require(runLog.runs(id: "job")?.first)
            #expect(run.stopReason == nil)
            #expect(runLog.lastStopReason(id: "job") == nil)
        }

        @Test func theJobTableShowsTheLastStop() {
            let job = DaemonResponse.Job(
                id: "abc", name: "sh", command: ["sh"], state: "waiting", waitingFor: ["network"], attempts: 1,
                lastExitStatus: 143, uniqueKey: nil, tags: [], lastStopReason: "requirements-lost [network]")
            let lines = JobsCommand.jobTable([job]).split(separator: "\n")
            #expect(
                lines.first?.contains("LAST EXIT  LAST STOP                    RELAXES  NEXT  NETWORKS  WAITING FOR")
                    == true)
            #expect(
                lines.last?.contains("143        requirements-lost [network]  -        -     -         network") == true
            )
        }

        @Test func theJobTableShowsTheRelaxations() {
            let relaxation = DaemonResponse.Relaxation(
                relaxed: "unmetered", replacement: [], afterSeconds: 259_200, applied: false,
                remainingSeconds: 183_600, summary: "unmetered dropped in 2d 3h")
            let job = DaemonResponse.Job(
                id: "abc", name: "sh", command: ["sh"], state: "waiting", waitingFor: ["unmetered"], attempts: 0,
                lastExitStatus: nil, uniqueKey: nil, tags: [], relaxations: [relaxation])
            let lines = JobsCommand.jobTable([job]).split(separator: "\n")
            #expect(lines.first?.contains("LAST STOP  RELAXES                     NEXT  NETWORKS  WAITING FOR") == true)
            #expect(lines.last?.hasSuffix("-          unmetered dropped in 2d 3h  -     -         unmetered") == true)
        }

        @Test func theJobTableShowsTheNetworks() {
            let job = DaemonResponse.Job(
                id: "abc", name: "sh", command: ["sh"], state: "waiting", waitingFor: ["network ssid:Home,eth*"],
                attempts: 0, lastExitStatus: nil, uniqueKey: nil, tags: [], networks: "ssid:Home,eth*")
            let lines = JobsCommand.jobTable([job]).split(separator: "\n")
            #expect(lines.first?.hasSuffix("NEXT  NETWORKS        WAITING FOR") == true)
            #expect(lines.last?.hasSuffix("-     ssid:Home,eth*  network ssid:Home,eth*") == true)
        }

        /// The first line written to the FIFO at `path`, read on a plain thread.
        private static func firstLine(of path: String) async -> String {
            await withCheckedContinuation { continuation in
                Thread.detachNewThread {
                    let data = FileHandle(forReadingAtPath: path)?.readDataToEndOfFile() ?? Data()
                    continuation.resume(returning: String(decoding: data, as: UTF8.self))
                }
            }
        }
    }
#endif
