/// The settings of the Linux connectivity backend.
package struct ConnectivityReaderConfiguration: Sendable {
    /// How long a burst of netlink hints is coalesced before evaluating; zero evaluates every batch.
    package var debounce: Duration
    /// The sysfs mount point used to classify interfaces.
    package var sysfsRoot: String
    /// The clock that times the debounce window.
    package var clock: any Clock<Duration>
    /// The IPv4 address whose route is looked up (network order). Nothing is ever sent to it.
    package var ipv4Probe: [UInt8]
    /// The IPv6 address whose route is looked up (network order). Nothing is ever sent to it.
    package var ipv6Probe: [UInt8]
    /// `SO_RCVBUF` requested for the event socket; overflow is survived by a resync either way.
    package var receiveBufferSize: Int32

    /// Creates a configuration; the probes default to 1.1.1.1 and 2606:4700:4700::1111.
    package init(
        debounce: Duration = .milliseconds(200),
        sysfsRoot: String = "/sys",
        clock: any Clock<Duration> = ContinuousClock(),
        ipv4Probe: [UInt8] = [1, 1, 1, 1],
        ipv6Probe: [UInt8] = [0x26, 0x06, 0x47, 0x00, 0x47, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0x11, 0x11],
        receiveBufferSize: Int32 = 1 << 20
    ) {
        self.debounce = debounce
        self.sysfsRoot = sysfsRoot
        self.clock = clock
        self.ipv4Probe = ipv4Probe
        self.ipv6Probe = ipv6Probe
        self.receiveBufferSize = receiveBufferSize
    }
}
