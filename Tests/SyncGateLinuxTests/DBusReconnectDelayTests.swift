#if os(Linux)
    import Testing

    @testable import SyncGate

    /// While the bus socket is watched, the timed retry is a safety net: its delay doubles with each failed
    /// reconnection, up to the maximum, so a process without a system bus is not woken every 30 s.
    @Suite struct DBusReconnectDelayTests {
        @Test(
            arguments: [
                (30, 3600, 0, 30), (30, 3600, 1, 60), (30, 3600, 2, 120), (30, 3600, 6, 1920), (30, 3600, 7, 3600),
                (30, 3600, 1000, 3600), (30, 10, 3, 30), (0, 3600, 5, 0),
            ] as [(Int, Int, Int, Int)])
        func delay(reconnect: Int, maximum: Int, failures: Int, expected: Int) {
            let configuration = DBusFollowerConfiguration(
                reconnectDelay: .seconds(reconnect), maximumReconnectDelay: .seconds(maximum))
            #expect(DBusPropertyFollower.backedOff(configuration, failures: failures) == .seconds(expected))
        }
    }
#endif
