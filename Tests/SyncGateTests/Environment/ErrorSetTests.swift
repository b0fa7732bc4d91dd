import SyncGate
import SyncGateTesting
import Testing

/// The public errors: each case's message names its field and value, and the waiting API throws a
/// typed, closed set.
@Suite("The public errors")
struct ErrorSetTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var error: any Error & CustomStringConvertible
        /// What the message must name: the field and the value, or the path and the cause.
        var names: [String]
        var testDescription: String { "\(error)" }
    }

    static let rows: [Row] =
        [
            Row(error: SyncEnvironmentError.timedOut, names: ["timed out"]),
            Row(error: SyncEnvironmentError.cancelled, names: ["cancelled"]),
            Row(
                error: SyncEnvironmentError.invalidArgument(
                    parameter: "conditions", message: "a condition's name is empty"),
                names: ["conditions", "name is empty"]
            ),
            Row(error: SyncSchedulerError.shutDown, names: ["shut down"]),
            Row(
                error: SyncSchedulerError.invalidJob(
                    SyncJobRefusal(
                        jobID: "j", field: "retry.maxAttempts", value: "0",
                        reason: "retry.maxAttempts must be at least 1, got 0")),
                names: ["maxAttempts", "0"]),
            Row(
                error: SyncSchedulerError.invalidConfiguration("maxConcurrentJobs must be at least 1, got 0"),
                names: ["maxConcurrentJobs", "0"]
            ),
            Row(error: SyncJobError.runTimedOut, names: ["run timeout"]),
            Row(error: SyncJobError.doNotRetry(SyncJobError.runTimedOut), names: ["without retry", "run timeout"]),
            Row(error: SyncJobError.expired, names: ["start deadline"]),
            Row(error: DurableJobError.notRestored, names: ["restoreJobs()"]),
            Row(error: DurableJobError.invalidKind("kind \"\" is empty"), names: ["kind", "\"\""]),
            Row(error: DurableJobError.unknownKind("upload"), names: ["kind", "\"upload\""]),
            Row(
                error: DurableJobError.payloadTypeMismatch(kind: "upload", registered: "Int", submitted: "String"),
                names: ["\"upload\"", "Int", "String"]
            ),
            Row(
                error: DurableJobError.payloadEncodingFailed(jobID: "j1", kind: "upload", reason: "not UTF-8"),
                names: ["j1", "\"upload\"", "not UTF-8"]
            ),
            Row(
                error: DurableJobError.rejected(
                    .invalidJob(SyncJobRefusal(jobID: "j", field: "delay", value: "-1.0 seconds", reason: "delay -1"))),
                names: ["delay", "-1"]),
            Row(
                error: DurableJobError.storeFailed(JobStoreError(.locked, path: "/data/jobs", cause: "EWOULDBLOCK")),
                names: ["/data/jobs", "EWOULDBLOCK"]
            ),
            Row(error: ConnectivityObserverError(operation: "socket", code: 97), names: ["socket", "errno 97"]),
        ]
        + [
            JobStoreError.Code.directoryMissing, .notADirectory, .cannotCreateDirectory, .locked, .ioFailure,
            .notAJournal, .unsupportedVersion, .closed, .invalidConfiguration,
        ].map { code in
            Row(
                error: JobStoreError(code, path: "/data/jobs", cause: "cause \(code)"),
                names: ["/data/jobs", "cause \(code)"])
        }

    @Test("each case's message names its field and value", arguments: rows)
    func messages(_ row: Row) {
        let message = row.error.description
        for name in row.names {
            #expect(message.contains(name), "\(message) does not name \(name)")
        }
    }

    @Test("waitUntil throws a typed error: catch .timedOut compiles and catches the timeout", .timeLimit(.minutes(1)))
    func catchTimedOut() async throws {
        let clock = ManualClock()
        let manual = ManualSyncEnvironment(clock: clock)
        let waiter = Task { try await Self.waitReportingTimeout(manual.environment) }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(5))
        #expect(try await waiter.value == "timed out")
    }

    /// The shape the README shows: `waitUntil` throws `SyncEnvironmentError`, so its cases are caught by
    /// name, and anything else would propagate.
    static func waitReportingTimeout(_ environment: SyncEnvironment) async throws -> String {
        do {
            _ = try await environment.waitUntil(.network, timeout: .seconds(5))
            return "satisfied"
        } catch .timedOut {
            return "timed out"
        }
    }

    @Test("waitUntil's cancellation is a case of its error", .timeLimit(.minutes(1)))
    func catchCancelled() async {
        let clock = ManualClock()
        let manual = ManualSyncEnvironment(clock: clock)
        let waiter = Task { () -> SyncEnvironmentError? in
            do throws(SyncEnvironmentError) {
                _ = try await manual.environment.waitUntil(.network, timeout: .seconds(5))
                return nil
            } catch {
                return error
            }
        }
        await clock.waitForSleepers(1)
        waiter.cancel()
        #expect(await waiter.value == .cancelled)
    }
}
