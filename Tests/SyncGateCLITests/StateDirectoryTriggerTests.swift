#if os(Linux)
    import Foundation
    import SyncGate
    @testable import SyncGateCLI
    import SyncGateTesting
    import Testing

    /// The daemon never watches its own state directory: `submit --on-change` refuses a path that is the
    /// state directory or lies inside it, naming the path and the directory, and takes a path whose tree
    /// holds it. The daemon's service (``DaemonService``) on a durable scheduler with the manual file
    /// watcher; no command runs.
    @Suite(.timeLimit(.minutes(1)))
    struct StateDirectoryTriggerTests {
        let home = NSTemporaryDirectory() + "syncgate-state-trigger-\(UUID().uuidString)"
        var state: String { home + "/.local/state/syncgate" }

        func withService(_ body: (DaemonService) throws -> Void) async throws {
            defer { try? FileManager.default.removeItem(atPath: home) }
            try FileManager.default.createDirectory(atPath: state + "/runs", withIntermediateDirectories: true)
            let manual = ManualSyncEnvironment(clock: ManualClock())
            let scheduler = SyncScheduler(
                environment: manual.environment, clock: ManualClock(), fileWatcher: ManualFileWatcher())
            let store = try FileJobStore(directory: state + "/jobs")
            let durable = DurableScheduler(scheduler: scheduler, store: store)
            try durable.register(ShellJob.kind, payload: ShellJob.self) { _, _ in }
            _ = try durable.restoreJobs()
            let service = DaemonService(
                durable: durable, environment: manual.environment, runLog: try RunLog(directory: state + "/runs"),
                stateDirectory: DaemonPaths.resolved(state), log: { _ in })
            try body(service)
            _ = await durable.shutdown(gracePeriod: .zero)
        }

        static func submission(onChange path: String) -> DaemonRequest.Submission {
            var submission = DaemonRequest.Submission(command: ["true"], workingDirectory: "/", require: "none")
            submission.onChange = [path]
            return submission
        }

        @Test("a path that is the state directory or lies inside it is refused, naming it and the directory")
        func insideIsRefused() async throws {
            try await withService { service in
                for path in [state, state + "/runs", home + "/.local/state/../state/syncgate/runs"] {
                    let (response, _) = service.handle(.submit(Self.submission(onChange: path)))
                    #expect(!response.ok)
                    let error = try #require(response.error)
                    #expect(
                        error.hasPrefix("invalid value '\(DaemonLimits.shown(path))' for --on-change: ")
                            && error.contains(DaemonPaths.resolved(state)) && !error.contains("\n"),
                        "\(error)")
                }
                #expect(service.durable.scheduler.jobs(matching: .all).isEmpty)
            }
        }

        @Test("a path whose tree holds the state directory is taken")
        func enclosingIsTaken() async throws {
            try await withService { service in
                for path in [home, home + "/.local/state", state + "-other"] {
                    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
                    let (response, _) = service.handle(.submit(Self.submission(onChange: path)))
                    #expect(response.ok, "\(path): \(String(describing: response.error))")
                }
            }
        }
    }
#endif
