#if os(Linux)
    import Foundation
    import SyncGate
    @testable import SyncGateCLI
    import SyncGateTesting
    import Testing

    /// A job the daemon's store keeps but its restore could not submit (an `--on-change` job whose path is
    /// gone) is listed by `jobs` as `kept`, with why, and `cancel ID` discards it for good. The daemon's
    /// service (``DaemonService``) on a durable scheduler and a `FileJobStore`, a ManualClock, a
    /// ManualSyncEnvironment and the manual file watcher; no command runs.
    @Suite(.timeLimit(.minutes(1)))
    struct KeptJobTests {
        let directory = NSTemporaryDirectory() + "syncgate-kept-\(UUID().uuidString)"
        let watched = "/srv/syncgate-kept-test/docs"
        let clock = ManualClock()

        /// One daemon lifetime: its service, scheduler and store.
        struct Daemon {
            let service: DaemonService
            let durable: DurableScheduler
            let store: FileJobStore
            let lines: LockedState<[String]>

            func stop() async throws {
                _ = await durable.shutdown(gracePeriod: .zero)
            }
        }

        /// Starts a "daemon" whose file watcher finds `missing` gone, with the shell kind registered (a
        /// handler that does nothing), and restores.
        func start(missing: String? = nil) throws -> (Daemon, DurableRestoreReport) {
            let files = ManualFileWatcher()
            if let missing { files.fail(missing, with: .missing) }
            let manual = ManualSyncEnvironment(clock: clock)
            let scheduler = SyncScheduler(environment: manual.environment, clock: clock, fileWatcher: files)
            let store = try FileJobStore(directory: directory + "/jobs")
            let durable = DurableScheduler(scheduler: scheduler, store: store)
            try durable.register(ShellJob.kind, payload: ShellJob.self) { _, _ in }
            let report = try durable.restoreJobs()
            let lines = LockedState<[String]>([])
            let service = DaemonService(
                durable: durable, environment: manual.environment, runLog: try RunLog(directory: directory + "/runs"),
                stateDirectory: directory, log: { line in lines.withLock { $0.append(line) } })
            return (Daemon(service: service, durable: durable, store: store, lines: lines), report)
        }

        /// Submits `docs`, an `--on-change` job of the watched path, and restarts with that path gone.
        func keptDocs() async throws -> Daemon {
            let (first, _) = try start()
            let shellJob = ShellJob(command: ["true"], workingDirectory: "/", name: "docs-sync")
            try first.service.runLog.recordJob(id: "docs", shellJob)
            var job = DurableJob(id: "docs", kind: ShellJob.kind, payload: shellJob, requires: [])
            job.fileTrigger = SyncFileTrigger(paths: [watched], quietPeriod: .seconds(5))
            job.uniqueKey = "docs-key"
            job.tags = ["sync", "docs"]
            try first.durable.submit(job)
            try await first.stop()

            let (second, report) = try start(missing: watched)
            #expect(report.restored.isEmpty)
            #expect(report.kept.map(\.id) == ["docs"])
            return second
        }

        @Test func jobsListsAKeptJobWithWhy() async throws {
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let daemon = try await keptDocs()
            let (response, _) = daemon.service.handle(.jobs(all: false))
            let jobs = try #require(response.jobs)
            #expect(jobs.map(\.id) == ["docs"])
            let job = try #require(jobs.first)
            #expect(job.state == "kept")
            #expect(job.name == "docs-sync")
            #expect(job.uniqueKey == "docs-key")
            #expect(job.tags == ["docs", "sync"])
            let reason = try #require(job.keptReason)
            #expect(reason.hasPrefix("rejected by the scheduler: ") && reason.contains(watched), "\(reason)")

            let table = JobsCommand.jobTable(jobs)
            let row = try #require(table.split(separator: "\n").last)
            #expect(row.contains(" kept ") && row.hasSuffix("not restored: " + reason), "\(table)")
            let list = JobsCommand.JobList(version: 1, jobs: jobs)
            let json = String(decoding: DaemonProtocol.encodeLine(list), as: UTF8.self)
            #expect(json.contains(#""state":"kept""#) && json.contains(#""keptReason":"#), "\(json)")
            try await daemon.stop()
        }

        @Test func cancelDiscardsAKeptJobForGood() async throws {
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let daemon = try await keptDocs()
            let (response, _) = daemon.service.handle(.cancel(.id("docs")))
            #expect(response.ok, "\(response.error ?? "")")
            #expect(response.discarded == 1)
            #expect(response.cancelled == 1)
            #expect(daemon.service.handle(.jobs(all: true)).0.jobs == [])
            #expect(daemon.durable.snapshot().kept.isEmpty)
            #expect(daemon.lines.withLock { $0 }.contains { $0.hasPrefix("discarded the kept job docs") })
            // A second cancel finds no job to cancel, and says why.
            let second = daemon.service.handle(.cancel(.id("docs"))).0
            #expect(second.ok == false)
            #expect(second.error == "job 'docs' was discarded from the store; nothing to cancel")
            try await daemon.stop()

            // The path is back, and still nothing returns.
            let (third, report) = try start()
            #expect(report.restored.isEmpty)
            #expect(report.kept.isEmpty)
            try await third.stop()
        }

        /// `cancel --tag` and `--unique` reach kept jobs: each matching one is discarded and counted among
        /// the cancelled; one that does not match stays kept.
        @Test(arguments: [
            (DaemonRequest.CancelSelector.tag("docs"), 1), (.uniqueKey("docs-key"), 1), (.tag("other"), 0),
            (.uniqueKey("other"), 0),
        ])
        func cancelOfATagOrKeyDiscardsItsKeptJobs(selector: DaemonRequest.CancelSelector, discarded: Int) async throws {
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let daemon = try await keptDocs()
            let (response, _) = daemon.service.handle(.cancel(selector))
            #expect(response.ok, "\(response.error ?? "")")
            #expect(response.cancelled == discarded)
            #expect(response.discarded == (discarded == 0 ? nil : discarded))
            #expect(daemon.durable.snapshot().kept.map(\.id) == (discarded == 0 ? ["docs"] : []))
            try await daemon.stop()
        }
    }
#endif
