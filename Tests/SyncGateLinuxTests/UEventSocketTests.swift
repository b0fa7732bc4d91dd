#if os(Linux)
    import Dispatch
    import Glibc
    import Testing

    @testable import SyncGate
    @testable import SyncGateWire

    /// Whether this process may make the kernel emit a uevent (root, writable sysfs).
    private let canTriggerUEvents = access("/sys/class/net/lo/uevent", W_OK) == 0

    @Suite("UEventSocket against the real kernel", .timeLimit(.minutes(1)))
    struct UEventSocketTests {
        @Test(
            "a uevent the kernel emits arrives through the socket and parses",
            .enabled(if: canTriggerUEvents, "needs root and a writable /sys (writes 'change' to lo's uevent file)")
        )
        func kernelEventArrives() async throws {
            let (messages, continuation) = AsyncStream.makeStream(of: UEventMessage.self)
            let socket = try UEventSocket(queue: DispatchQueue(label: "UEventSocketTests")) { datagrams, _ in
                for datagram in datagrams {
                    if let message = UEventMessage(bytes: datagram) { continuation.yield(message) }
                }
            }
            defer { socket.cancel() }

            // The kernel broadcasts synchronously inside write(2), so the datagram is queued on the
            // socket before the write returns.
            let descriptor = open("/sys/class/net/lo/uevent", O_WRONLY | O_CLOEXEC)
            try #require(descriptor >= 0)
            let written = write(descriptor, "change", 6)
            close(descriptor)
            try #require(written == 6)

            var received: UEventMessage?
            for await message in messages where message.devicePath == "/devices/virtual/net/lo" {
                received = message
                break
            }
            #expect(received?.action == "change")
            #expect(received?.subsystem == "net")
            #expect(received?.isPowerSupplyEvent == false)
        }
    }
#endif
