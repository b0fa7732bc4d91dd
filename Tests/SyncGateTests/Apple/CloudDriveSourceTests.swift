import Testing

@testable import SyncGateCore

/// The iCloud Drive source, above its `ubiquityIdentityToken` seam.
@Suite("iCloud Drive source", .timeLimit(.minutes(1)))
struct CloudDriveSourceTests {
    @Test("the identity now, then every NSUbiquityIdentityDidChange, to every subscriber")
    func followsIdentity() async {
        let reader = FakeUbiquityReader()
        reader.identity.withLock { $0 = true }
        let source = CloudDriveSource(reader: reader)
        #expect(source.isAvailable)
        var first = source.availabilityStream.makeAsyncIterator()
        var second = source.availabilityStream.makeAsyncIterator()
        #expect(await first.next() == true)
        #expect(await second.next() == true)
        reader.change(to: false)
        #expect(await first.next() == false)
        #expect(await second.next() == false)
        let environment = SyncEnvironment(cloudDrive: source)
        #expect(!environment.status.satisfies(.cloudDrive))
        reader.change(to: true)
        #expect(environment.status.satisfies(.cloudDrive))
        source.stop()
        #expect(!reader.observing.withLock { $0 })
    }
}
