/// The seam over Apple's power APIs: reads the current facts and reports that they may have changed.
///
/// The Apple conformance (`Platform/Apple/ApplePowerFactsReader.swift`) reads `ProcessInfo`, `UIDevice`
/// or IOKit, and subscribes to their notifications; tests use a fake.
package protocol PowerFactsReading: Sendable {
    /// Where the battery facts come from, for the provenance.
    var batteryOrigin: StatusOrigin { get }
    /// The facts now.
    func read() -> ApplePowerFacts
    /// Starts reporting changes to `onChange` (on any thread) and turns on whatever monitoring the
    /// platform needs (`UIDevice.isBatteryMonitoringEnabled`). Called once.
    func startObserving(_ onChange: @escaping @Sendable () -> Void)
    /// Stops reporting and turns that monitoring back off. Called once, after `startObserving`.
    func stopObserving()
}
