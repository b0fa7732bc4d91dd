import Testing

@testable import SyncGateCore

/// The Core Data + CloudKit sync-event source, above its notification seam: every event type mapped,
/// the activity back to idle when events end, and the full-storage hook.
@Suite("CloudKit sync events", .timeLimit(.minutes(1)))
struct CloudKitSyncEventTests {
    static func event(
        _ id: String, _ type: CloudKitEventTypeMirror, finished: Bool = false, succeeded: Bool = false,
        error: CloudKitErrorFacts? = nil, container: ObjectIdentifier? = nil
    ) -> CloudKitEventFacts {
        CloudKitEventFacts(
            identifier: id, container: container, type: type, isFinished: finished, succeeded: succeeded,
            error: error)
    }

    static let typeTable: [(CloudKitEventTypeMirror, SyncEvent?)] = [
        (.setup, .setup), (.import, .importing), (.export, .exporting), (.unknown, nil),
    ]

    @Test(
        "every NSPersistentCloudKitContainer.EventType: started, then back to idle when it ends", arguments: typeTable)
    func everyType(type: CloudKitEventTypeMirror, activity: SyncEvent?) {
        var tracker = SyncEventTracker()
        #expect(tracker.apply(Self.event("a", type)) == activity ?? .idle)
        #expect(tracker.apply(Self.event("a", type, finished: true, succeeded: true)) == .idle)
        #expect(tracker.apply(Self.event("b", type)) == activity ?? .idle)
        #expect(tracker.apply(Self.event("b", type, finished: true, succeeded: false)) == .idle)
    }

    @Test("the type table covers every case") func tableIsComplete() {
        #expect(Set(Self.typeTable.map(\.0)) == Set(CloudKitEventTypeMirror.allCases))
    }

    @Test("overlapping events: busy until both end, setup over importing over exporting")
    func overlappingEvents() {
        var tracker = SyncEventTracker()
        #expect(tracker.apply(Self.event("e", .export)) == .exporting)
        #expect(tracker.apply(Self.event("i", .import)) == .importing)
        #expect(tracker.apply(Self.event("s", .setup)) == .setup)
        #expect(tracker.apply(Self.event("s", .setup, finished: true, succeeded: true)) == .importing)
        #expect(tracker.apply(Self.event("i", .import, finished: true, succeeded: true)) == .exporting)
        #expect(tracker.apply(Self.event("e", .export, finished: true, succeeded: true)) == .idle)
    }

    static let quotaTable: [(String, CloudKitErrorFacts, Bool)] = [
        ("direct", CloudKitErrorFacts(code: .quotaExceeded), true),
        (
            "inside partialFailure",
            CloudKitErrorFacts(
                code: .partialFailure,
                partialErrors: [CloudKitErrorFacts(code: .zoneBusy), CloudKitErrorFacts(code: .quotaExceeded)]),
            true
        ),
        (
            "two levels deep",
            CloudKitErrorFacts(
                code: .partialFailure,
                partialErrors: [
                    CloudKitErrorFacts(code: .partialFailure, partialErrors: [CloudKitErrorFacts(code: .quotaExceeded)])
                ]),
            true
        ),
        (
            "partialFailure without quota",
            CloudKitErrorFacts(code: .partialFailure, partialErrors: [CloudKitErrorFacts(code: .zoneBusy)]), false
        ),
        ("another code", CloudKitErrorFacts(code: .networkFailure), false),
        ("not a CKError", CloudKitErrorFacts(code: nil), false),
    ]

    @Test("a quota error is found directly and inside partialFailure", arguments: quotaTable)
    func quotaIsFound(name: String, error: CloudKitErrorFacts, found: Bool) {
        #expect(error.containsQuotaExceeded == found, "\(name)")
        let calls = LockedState(0)
        let hook = QuotaExceededHook { calls.withLock { $0 += 1 } }
        let observer = FakeEventObserver()
        let source = CloudKitSyncEventSource(observer: observer, quotaExceeded: hook)
        observer.post(Self.event("x", .export))
        observer.post(Self.event("x", .export, finished: true, succeeded: false, error: error))
        #expect(calls.withLock { $0 } == (found ? 1 : 0), "\(name)")
        #expect(source.event == .idle)
    }

    @Test("the quota hook reports once per episode, re-armed by a successful export or by hand")
    func quotaEpisodes() {
        let calls = LockedState(0)
        let hook = QuotaExceededHook { calls.withLock { $0 += 1 } }
        let observer = FakeEventObserver()
        let source = CloudKitSyncEventSource(observer: observer, quotaExceeded: hook)
        let full = CloudKitErrorFacts(code: .quotaExceeded)
        observer.post(Self.event("1", .export, finished: true, error: full))
        observer.post(Self.event("2", .export, finished: true, error: full))
        #expect(calls.withLock { $0 } == 1)
        #expect(!hook.isArmed)
        observer.post(Self.event("3", .export, finished: true, succeeded: true))
        #expect(hook.isArmed)
        observer.post(Self.event("4", .export, finished: true, error: full))
        #expect(calls.withLock { $0 } == 2)
        hook.rearm()
        observer.post(Self.event("5", .import, finished: true, error: full))
        #expect(calls.withLock { $0 } == 3)
        source.stop()
        #expect(!observer.observing.withLock { $0 })
    }

    @Test("one container's events only, when one is given")
    func oneContainer() {
        final class Container {}
        let mine = Container()
        let other = Container()
        let observer = FakeEventObserver()
        let source = CloudKitSyncEventSource(
            observer: observer, container: ObjectIdentifier(mine), quotaExceeded: nil)
        observer.post(Self.event("o", .import, container: ObjectIdentifier(other)))
        #expect(source.event == .idle)
        observer.post(Self.event("m", .export, container: ObjectIdentifier(mine)))
        #expect(source.event == .exporting)
        withExtendedLifetime((mine, other)) {}
    }

    @Test("every subscriber gets every change: none overwrites another")
    func multicast() async {
        let observer = FakeEventObserver()
        let source = CloudKitSyncEventSource(observer: observer, quotaExceeded: nil)
        var first = source.eventStream.makeAsyncIterator()
        var second = source.eventStream.makeAsyncIterator()
        #expect(await first.next() == .idle)
        #expect(await second.next() == .idle)
        observer.post(Self.event("a", .import))
        #expect(await first.next() == .importing)
        #expect(await second.next() == .importing)
    }
}
