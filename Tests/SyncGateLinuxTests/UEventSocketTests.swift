#if os(Linux)
    import Dispatch
    import Glibc
    import Testing

    @testable import SyncGateCore

    @testable import SyncGateLinux
    @testable import SyncGateWire

    /// Whether this process may make the kernel emit a uevent (root, writable sysfs).
    private let canTriggerUEvents = access("/sys/class/net/lo/uevent", W_OK) == 0

    /// Whether this process is in the network namespace of process 1: the kernel sends a network
    /// device's uevents only to sockets of the device's namespace, and `/sys/class/net` shows the
    /// devices of the namespace that mounted `/sys` (under `unshare -n`, not ours).
    private let isInInitialNetworkNamespace: Bool = {
        func link(_ path: String) -> String? {
            var buffer = [CChar](repeating: 0, count: 256)
            let count = readlink(path, &buffer, buffer.count - 1)
            guard count > 0 else { return nil }
            return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        guard let own = link("/proc/self/ns/net"), let first = link("/proc/1/ns/net") else { return false }
        return own == first
    }()

    @Suite("UEventSocket against the real kernel", .timeLimit(.minutes(1)))
    struct UEventSocketTests {
        @Test(
            "a uevent the kernel emits arrives through the socket and parses",
            .enabled(if: canTriggerUEvents, "needs root and a writable /sys (writes 'change' to lo's uevent file)"),
            .enabled(
                if: isInInitialNetworkNamespace,
                "runs in the initial network namespace only: lo's uevents go to the namespace that mounted /sys")
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
