import SyncGate
import SyncGateTesting
import Testing

/// `PartObserving`, the one protocol behind the part protocols, and `SyncEnvironment.stream(of:)`, the
/// one stream of a part addressed by its key path.
@Suite("PartObserving", .timeLimit(.minutes(1)))
struct PartObservingTests {
    @Test("a feed of any value is a part source: status reads and sets the value, statusStream streams it")
    func feedIsAPartSource() async {
        let feed = StatusFeed(1)
        let source: any PartObserving<Int> = feed
        var values = source.statusStream.makeAsyncIterator()
        #expect(await values.next() == 1)
        feed.status = 2
        #expect(source.status == 2)
        #expect(await values.next() == 2)
    }

    @Test("a cloud-drive or sync-event source's status is its own value")
    func renamedPartsAnswerStatus() async {
        let drive: any CloudDriveObserving = StatusFeed(isAvailable: true)
        let events: any SyncEventObserving = StatusFeed(event: .exporting)
        #expect(drive.status == drive.isAvailable)
        #expect(events.status == events.event)
        var driveValues = drive.statusStream.makeAsyncIterator()
        #expect(await driveValues.next() == true)
    }

    @Test("a stream of a derived field emits only that field's changes")
    func derivedFieldStream() async {
        let manual = ManualSyncEnvironment(connectivity: .connected(via: .wifi))
        var ready = manual.environment.stream(of: \.isSyncReady).makeAsyncIterator()
        #expect(await ready.next() == true)
        manual.setSyncEvent(.importing)
        manual.setConnectivity(.disconnected)
        #expect(await ready.next() == false)
    }
}
