import Testing

@testable import SyncGateCore

@testable import SyncGateDurable

/// The logging hook: nothing is built without a logger, the stderr adapter's lines and levels, and the
/// call sites for a source lost and regained and a full iCloud storage.
@Suite("Logging", .serialized, .timeLimit(.minutes(1)))
struct LoggerTests {
    @Test("without a logger no message is built")
    func noLoggerNoMessage() {
        SyncGateLog.install(nil)
        let built = LockedState(0)
        SyncGateLog.log(
            .error,
            {
                built.withLock { $0 += 1 }
                return "x"
            }())
        #expect(built.withLock { $0 } == 0)
    }

    static let levelTable: [(SyncGateLogLevel, SyncGateLogLevel, Bool)] = [
        (.debug, .debug, true), (.info, .debug, false), (.info, .warning, true), (.error, .warning, false),
        (.error, .error, true), (.warning, .info, false),
    ]

    @Test("the stderr logger writes the levels from its minimum up", arguments: levelTable)
    func stderrLevels(minimum: SyncGateLogLevel, level: SyncGateLogLevel, enabled: Bool) {
        #expect(StderrLogger(minimumLevel: minimum).isEnabled(level) == enabled)
    }

    @Test("the stderr line names the level, the message and the source location")
    func stderrLine() {
        #expect(
            StderrLogger().line("network source lost", level: .warning, file: "SyncGate/PathFollower.swift", line: 42)
                == "syncgate: warning: network source lost (SyncGate/PathFollower.swift:42)")
        #expect(SyncGateLogLevel.allCases.map(\.description) == ["debug", "info", "warning", "error"])
    }

    @Test("a network source lost and regained is logged, with the unsatisfied reason")
    func networkLostAndRegained() {
        let logger = RecordingLogger()
        SyncGateLog.install(logger)
        defer { SyncGateLog.install(nil) }
        let monitor = FakePathMonitor()
        let follower = PathFollower(monitor: monitor)
        // Other suites log meanwhile: this test's messages are told apart by their unusual paths.
        let wired = PathSnapshot(status: .satisfied, usedInterfaceTypes: [.wiredEthernet], isConstrained: true)
        monitor.deliver(wired)
        monitor.deliver(PathSnapshot(status: .requiresConnection, unsatisfiedReason: .localNetworkDenied))
        monitor.deliver(wired)
        let lost = logger.messages(containing: "requires a connection (local network denied")
        #expect(
            lost.map(\.message) == ["network source lost: path requires a connection (local network denied to the app)"]
        )
        #expect(lost.first?.level == .warning)
        let regained = logger.messages(containing: "regained: connected via wired-ethernet (constrained)")
        #expect(regained.map(\.level) == [.info])
        follower.stop()
    }

    @Test("a full iCloud storage is logged as an error")
    func quotaLogged() {
        let logger = RecordingLogger()
        SyncGateLog.install(logger)
        defer { SyncGateLog.install(nil) }
        let observer = FakeEventObserver()
        let source = CloudKitSyncEventSource(observer: observer, quotaExceeded: nil)
        observer.post(
            CloudKitEventFacts(
                identifier: "q", type: .export, isFinished: true, succeeded: false,
                error: CloudKitErrorFacts(
                    code: .partialFailure, partialErrors: [CloudKitErrorFacts(code: .quotaExceeded)],
                    description: "logger-test storage full")))
        #expect(logger.messages(containing: "logger-test storage full").map(\.level) == [.error])
        #expect(
            logger.messages(containing: "logger-test storage full").first?.message.hasPrefix("iCloud quota exceeded")
                == true)
        source.stop()
    }

    @Test("a durable journal write that fails is logged as an error, and a closed store is not retried")
    func durableWriteFailureLogged() async throws {
        let logger = RecordingLogger()
        SyncGateLog.install(logger)
        defer { SyncGateLog.install(nil) }
        let directory = TemporaryDirectory()
        let store = try FileJobStore(directory: directory.path)
        let durable = DurableScheduler(scheduler: SyncScheduler(environment: SyncEnvironment()), store: store)
        // The body waits until it is cancelled (an open stream ends its loop on cancellation).
        let (open, keepOpen) = AsyncStream.makeStream(of: Int.self)
        try durable.register("logged-upload", payload: UploadRequest.self) { _, _ in
            for await _ in open {}
            try Task.checkCancellation()
        }
        defer { keepOpen.finish() }
        try durable.restoreJobs()
        let handle = try durable.submit(
            DurableJob(id: "logged-1", kind: "logged-upload", payload: UploadRequest(photo: 7)))
        try store.close()
        handle.cancel()
        _ = try await handle.outcome()
        let logged = logger.messages(containing: "durable job logged-1")
        #expect(logged.map(\.level).contains(.error))
        #expect(logged.first?.message.contains("closed") == true)
        #expect(durable.snapshot().pendingWrites >= 1)
    }
}
