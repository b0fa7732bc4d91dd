#if os(Linux)
    /// What the Linux connectivity reader has done so far, for tests and the benchmark harness.
    package struct ConnectivityReaderCounters: Sendable, Hashable {
        /// Evaluations of the status (route lookups plus the link cache).
        package var evaluations = 0
        /// Re-dumps of the link cache after an overflow or a malformed message.
        package var resyncs = 0
        /// Evaluations whose lookups still answered with a route the kernel had announced as removed
        /// (`RTM_DELROUTE` comes just before the entry leaves the table), and were therefore made again.
        package var staleLookups = 0
        /// Statuses published from a route's announcement before the lookups (``ConnectivityEarlyGain``).
        package var earlyGains = 0

        /// Counters that start at zero.
        package init(evaluations: Int = 0, resyncs: Int = 0, staleLookups: Int = 0, earlyGains: Int = 0) {
            self.evaluations = evaluations
            self.resyncs = resyncs
            self.staleLookups = staleLookups
            self.earlyGains = earlyGains
        }
    }
#endif
