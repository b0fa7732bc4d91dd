import SyncGateTesting
import Testing

@testable import SyncGateCore

/// The CloudKit account source, above its `CKContainer` seam: every `CKAccountStatus` mapped, errors
/// kept as `couldNotDetermine`, transient errors retried with backoff on the clock.
@Suite("CloudKit account source", .timeLimit(.minutes(1)))
struct CloudAccountSourceTests {
    static let statusTable: [(CloudAccountStatusMirror, AccountStatus)] = [
        (.couldNotDetermine, .couldNotDetermine), (.available, .available), (.restricted, .restricted),
        (.noAccount, .noAccount), (.temporarilyUnavailable, .temporarilyUnavailable),
        (.unknown, .couldNotDetermine),
    ]

    @Test("every CKAccountStatus", arguments: statusTable)
    func everyStatus(mirror: CloudAccountStatusMirror, status: AccountStatus) async throws {
        #expect(mirror.accountStatus == status)
        let checker = FakeAccountChecker()
        // Two checks ask, in either order: the source's first one (a task of its own) and `refresh()`.
        checker.answer(.success(mirror))
        checker.answer(.success(mirror))
        let source = CloudAccountSource(checker: checker, clock: ManualClock())
        #expect(try await source.refresh() == status)
        #expect(source.status == status)
    }

    @Test("the status table covers every case") func tableIsComplete() {
        #expect(Set(Self.statusTable.map(\.0)) == Set(CloudAccountStatusMirror.allCases))
    }

    static let transientTable: [(CloudKitErrorCodeMirror?, Bool)] = [
        (.partialFailure, false), (.networkUnavailable, true), (.networkFailure, true),
        (.serviceUnavailable, true), (.requestRateLimited, true), (.zoneBusy, true), (.serverResponseLost, true),
        (.accountTemporarilyUnavailable, true), (.notAuthenticated, false), (.quotaExceeded, false),
        (.other(1), false), (nil, false),
    ]

    @Test("which CKError codes are retried", arguments: transientTable)
    func transientCodes(code: CloudKitErrorCodeMirror?, transient: Bool) {
        #expect(CloudKitErrorFacts(code: code).isTransient == transient)
        #expect(CloudKitErrorFacts(code: code, retryAfterSeconds: 3).isTransient)
    }

    @Test("the transient table covers every named code") func transientTableIsComplete() {
        #expect(CloudKitErrorCodeMirror.named.allSatisfy { code in Self.transientTable.contains { $0.0 == code } })
    }

    static let delayTable: [(Int, Double?, Duration)] = [
        (1, nil, .seconds(2)), (2, nil, .seconds(4)), (3, nil, .seconds(8)), (9, nil, .seconds(300)),
        (1, 30, .seconds(30)), (3, 1, .seconds(8)),
    ]

    @Test("backoff doubles up to the maximum; a longer retry-after wins", arguments: delayTable)
    func backoff(attempt: Int, retryAfter: Double?, delay: Duration) {
        #expect(
            CloudAccountRetry().delay(after: attempt, facts: CloudKitErrorFacts(retryAfterSeconds: retryAfter)) == delay
        )
    }

    @Test("an error reads as couldNotDetermine, keeps the error, and a transient one is retried with backoff")
    func transientErrorIsRetried() async throws {
        let clock = ManualClock()
        let checker = FakeAccountChecker()
        let source = CloudAccountSource(checker: checker, clock: clock)
        var statuses = source.statusStream.makeAsyncIterator()
        #expect(await statuses.next() == .couldNotDetermine)
        checker.answer(.failure(FakeAccountChecker.failure(.networkUnavailable)))
        await clock.waitForSleepers(1)
        #expect(source.lastError?.facts.code == .networkUnavailable)
        #expect(source.status == .couldNotDetermine)
        clock.advance(by: .seconds(1))
        #expect(checker.calls.value == 1, "retried before the backoff ended")
        clock.advance(by: .seconds(1))
        checker.answer(.failure(FakeAccountChecker.failure(.serviceUnavailable)))
        await clock.waitForSleepers(1)
        #expect(checker.calls.value == 2)
        clock.advance(by: .seconds(4))
        checker.answer(.success(.available))
        #expect(await statuses.next() == .available)
        #expect(checker.calls.value == 3)
        #expect(source.lastError == nil)
    }

    @Test("a permanent error is not retried")
    func permanentErrorIsNotRetried() async throws {
        let clock = ManualClock()
        let checker = FakeAccountChecker()
        // Two checks ask, in either order: the source's first one (a task of its own) and `refresh()`.
        checker.answer(.failure(FakeAccountChecker.failure(.notAuthenticated)))
        checker.answer(.failure(FakeAccountChecker.failure(.notAuthenticated)))
        let source = CloudAccountSource(checker: checker, clock: clock)
        await #expect(throws: CloudKitAccountError.self) { try await source.refresh() }
        #expect(source.status == .couldNotDetermine)
        #expect(source.lastError?.facts.code == .notAuthenticated)
    }

    @Test("an account change supersedes a pending retry and is followed")
    func changeSupersedesRetry() async throws {
        let clock = ManualClock()
        let checker = FakeAccountChecker()
        let source = CloudAccountSource(checker: checker, clock: clock)
        var statuses = source.statusStream.makeAsyncIterator()
        #expect(await statuses.next() == .couldNotDetermine)
        checker.answer(.failure(FakeAccountChecker.failure(.requestRateLimited, retryAfter: 60)))
        await clock.waitForSleepers(1)
        checker.postAccountChanged()
        checker.answer(.success(.noAccount))
        #expect(await statuses.next() == .noAccount)
        await clock.waitForSleepers(0)
        clock.advance(by: .seconds(600))
        #expect(checker.calls.value == 2, "the superseded retry ran")
        #expect(source.status == .noAccount)
    }

    @Test("stopping the source stops observing CKAccountChanged")
    func stopStopsObserving() async throws {
        let checker = FakeAccountChecker()
        checker.answer(.success(.available))
        let source = CloudAccountSource(checker: checker, clock: ManualClock())
        #expect(checker.isObserving)
        source.stop()
        #expect(!checker.isObserving)
    }
}
