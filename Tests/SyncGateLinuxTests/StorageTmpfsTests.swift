#if os(Linux)
    import Foundation
    import Glibc
    import SyncGate
    import SyncGateTesting
    import Testing

    /// `.storageNotLow` on a real volume: a 1 MiB tmpfs mounted for the test, filled and emptied.
    @Suite(.enabled(if: TmpfsVolume.isEnabled, TmpfsVolume.skipComment), .timeLimit(.minutes(1)))
    struct StorageTmpfsTests {
        @Test func jobWaitsWhileTheVolumeIsFullAndStartsOnTheTickAfterSpaceIsFreed() async throws {
            let volume = try TmpfsVolume(size: 1 << 20)
            let clock = ManualClock()
            let storage = StorageObserver(path: volume.path, checkInterval: .seconds(60), clock: clock)
            // The default threshold on 1 MiB: 5 %, 52 428 bytes.
            #expect(storage.status.capacityBytes == 1 << 20)
            #expect(storage.status.thresholdBytes == 52_428)
            #expect(!storage.status.isLow)
            let environment = SyncEnvironment(storage: storage, clock: clock)
            let scheduler = SyncScheduler(environment: environment, clock: clock)

            // Leave 16 KiB free. Nobody needs the requirement yet, so nothing notices.
            try volume.fill("ballast", bytes: (1 << 20) - (16 << 10))
            #expect(!environment.status.storage.isLow)
            #expect(clock.sleeperCount == 0)

            // The job's submission reads the volume first, so the job is judged on the full volume.
            let handle = try scheduler.submit(SyncJob(requires: .storageNotLow) { _ in })
            #expect(environment.status.storage.isLow)
            #expect(environment.status.storage.availableBytes == 16 << 10)
            #expect(handle.state == .waiting(unmet: .storageNotLow, conditions: []))

            // Freed space is seen on the next tick of the check timer, not before.
            #expect(unlink(volume.path + "/ballast") == 0)
            #expect(environment.status.storage.isLow)
            await clock.waitForSleepers(1)
            clock.advance(by: .seconds(60))
            #expect(try await handle.outcome() == .succeeded)
            #expect(!environment.status.storage.isLow)
            #expect(!storage.isCheckTimerArmed)
        }
    }
#endif
