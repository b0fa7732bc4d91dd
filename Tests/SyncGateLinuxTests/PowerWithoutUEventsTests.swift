#if os(Linux)
    import Glibc
    import SyncGate
    import SyncGateTesting
    import Testing

    @testable import SyncGateLinux

    /// A power observer whose uevent socket the kernel refused (a systemd unit whose
    /// `RestrictAddressFamilies=` leaves out `AF_NETLINK`): it re-reads sysfs every 2 s instead, battery or
    /// not, and says so in its provenance.
    @Suite("PowerObserver without uevents", .timeLimit(.minutes(1)))
    struct PowerWithoutUEventsTests {
        private func makeObserver(_ fixture: PowerSupplyFixture, clock: ManualClock) -> PowerObserver {
            PowerObserver(
                backend: LinuxPowerBackend(
                    sysfsRoot: fixture.root, clock: clock, rereadInterval: .seconds(60), listensForUEvents: true,
                    dbus: nil,
                    openUEvents: { _, _ throws(UEventSocket.OpenError) in
                        throw UEventSocket.OpenError(operation: "socket", code: EAFNOSUPPORT)
                    }))
        }

        @Test("a change is read at the next re-read, and the provenance says why")
        func rereadsInsteadOfListening() async throws {
            let clock = ManualClock()
            let fixture = try PowerSupplyFixture([.mains(online: "0"), .battery(status: "Discharging", capacity: "80")])
            let observer = makeObserver(fixture, clock: clock)
            #expect(!observer.isListeningForUEvents)
            #expect(observer.isRereadTimerArmed)
            var statuses = observer.statusStream.makeAsyncIterator()
            #expect(await statuses.next()?.isOnExternalPower == false)

            // The 2 s re-read, not the battery's 60 s one.
            await clock.waitForSleepers(1)
            #expect(clock.sleeperDeadlines == [ManualClock.Instant(offset: .seconds(2))])
            try fixture.set("AC", "online", "1")
            try fixture.set("BAT0", "status", "Charging")
            clock.advance(by: .seconds(2))
            #expect(await statuses.next()?.isOnExternalPower == true)

            let note =
                "uevents: cannot listen (uevent socket: socket failed: Address family not supported by protocol "
                + "(errno 97)); /sys/class/power_supply is re-read every 2.0 seconds instead"
            #expect(observer.provenance.notes.contains(note), "\(observer.provenance.notes)")
        }

        @Test("the re-read is armed without a system battery too")
        func rereadsWithoutABattery() async throws {
            let clock = ManualClock()
            let fixture = try PowerSupplyFixture([.mains(online: "1")])
            let observer = makeObserver(fixture, clock: clock)
            #expect(observer.isRereadTimerArmed)
            await clock.waitForSleepers(1)
            #expect(clock.sleeperDeadlines == [ManualClock.Instant(offset: .seconds(2))])
        }
    }
#endif
