/// The seam over Apple's power APIs: reads the current facts and reports that they may have changed.
///
/// The Apple conformance (`Sources/SyncGateApple/ApplePowerFactsReader.swift`) reads `ProcessInfo`,
/// `UIDevice` or IOKit, and subscribes to their notifications; tests use a fake.
///
/// No method may wait for the main thread: the follower calls them on whatever thread creates or stops
/// the observer, and that thread may be one the main thread is waiting for. Facts that only the main
/// thread may read (`UIDevice`) are read there, and offered elsewhere as last known (``MainThreadFacts``).
package protocol PowerFactsReading: Sendable {
    /// Where the battery facts come from, for the provenance.
    var batteryOrigin: StatusOrigin { get }
    /// The facts now; on any thread, without waiting for the main thread. Facts only the main thread may
    /// read are the last ones it read, or unknown until it has read any.
    func read() -> ApplePowerFacts
    /// Starts reporting changes to `onChange` (on any thread) and turns on whatever monitoring the
    /// platform needs (`UIDevice.isBatteryMonitoringEnabled`, switched on the main thread, through the main
    /// queue when called elsewhere). Reports a change once facts read late on the main thread are there.
    /// Called once.
    func startObserving(_ onChange: @escaping @Sendable () -> Void)
    /// Stops reporting and turns that monitoring back off (once no other reader observes). Called once,
    /// after `startObserving`.
    func stopObserving()
}
