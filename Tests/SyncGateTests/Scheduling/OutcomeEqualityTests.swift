import SyncGate
import Testing

/// `SyncJobOutcome` compares with `==`: the same case, and for failures the same error.
@Suite("Comparing outcomes", .timeLimit(.minutes(1)))
struct OutcomeEqualityTests {
    enum UploadError: Error, Equatable {
        case quotaExceeded(bytes: Int)
        case offline
    }

    /// An error that is not `Equatable`: compared by its full text.
    struct ServerError: Error {
        var status: Int
    }

    /// Another non-`Equatable` error whose text could match a `ServerError`'s.
    struct OtherServerError: Error, CustomStringConvertible {
        var status: Int
        var description: String { "ServerError(status: \(status))" }
    }

    @Test(
        "outcomes are equal exactly when their cases and errors match",
        arguments: [
            (SyncJobOutcome.succeeded, SyncJobOutcome.succeeded, true),
            (.cancelled, .cancelled, true),
            (.expired, .expired, true),
            (.succeeded, .cancelled, false),
            (.cancelled, .expired, false),
            (.succeeded, .failed(UploadError.offline), false),
            (.failed(UploadError.offline), .failed(UploadError.offline), true),
            (.failed(UploadError.quotaExceeded(bytes: 5)), .failed(UploadError.quotaExceeded(bytes: 5)), true),
            (.failed(UploadError.quotaExceeded(bytes: 5)), .failed(UploadError.quotaExceeded(bytes: 6)), false),
            (.failed(UploadError.offline), .failed(UploadError.quotaExceeded(bytes: 5)), false),
            (.failed(ServerError(status: 503)), .failed(ServerError(status: 503)), true),
            (.failed(ServerError(status: 503)), .failed(ServerError(status: 500)), false),
            (.failed(ServerError(status: 503)), .failed(OtherServerError(status: 503)), false),
            (.failed(SyncJobError.runTimedOut), .failed(SyncJobError.runTimedOut), true),
            (.failed(SyncJobError.runTimedOut), .failed(SyncJobError.expired), false),
            (.failed(CancellationError()), .failed(CancellationError()), true),
        ]
    )
    func equality(lhs: SyncJobOutcome, rhs: SyncJobOutcome, equal: Bool) {
        #expect((lhs == rhs) == equal)
        #expect((rhs == lhs) == equal)
        #expect((lhs != rhs) != equal)
    }

    @Test("the common checks are one expression each")
    func commonChecks() {
        let outcome = SyncJobOutcome.failed(UploadError.offline)
        #expect(outcome != .succeeded)
        #expect(outcome == .failed(UploadError.offline))
        #expect(outcome.isFailed)
        #expect(outcome.state == .failed(UploadError.offline))
        #expect(SyncJobOutcome.succeeded == .succeeded)
    }
}
