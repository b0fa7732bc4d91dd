/// The settings of a D-Bus-backed source: which bus, which clock, how long to wait.
package struct DBusFollowerConfiguration: Sendable {
    /// The bus address; `nil` means the system bus (`DBUS_SYSTEM_BUS_ADDRESS`, else the standard socket).
    package var address: String?
    /// The clock of call timeouts and reconnection delays.
    package var clock: any Clock<Duration>
    /// How long a call waits for its reply.
    package var callTimeout: Duration
    /// How long after losing (or failing to reach) the bus the source tries again.
    package var reconnectDelay: Duration
    /// The delay of the timed retry while the bus's socket file is absent and its creation is watched: a
    /// creation triggers a retry at once, so the timer is only a safety net.
    package var reconnectDelayWhileWatching: Duration
    /// The wall-clock bound the observer's initializer waits for the first answers.
    package var initialWait: Duration
    /// The wall-clock bound on connecting to the bus, authenticating and saying `Hello`.
    package var setupTimeout: Duration

    /// Creates a configuration; the defaults suit the system bus.
    package init(
        address: String? = nil,
        clock: any Clock<Duration> = ContinuousClock(),
        callTimeout: Duration = .seconds(5),
        reconnectDelay: Duration = .seconds(30),
        reconnectDelayWhileWatching: Duration = .seconds(3600),
        initialWait: Duration = .seconds(1),
        setupTimeout: Duration = .seconds(2)
    ) {
        self.address = address
        self.clock = clock
        self.callTimeout = callTimeout
        self.reconnectDelay = reconnectDelay
        self.reconnectDelayWhileWatching = reconnectDelayWhileWatching
        self.initialWait = initialWait
        self.setupTimeout = setupTimeout
    }
}
