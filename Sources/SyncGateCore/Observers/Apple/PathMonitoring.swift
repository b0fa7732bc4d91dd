/// The seam over `NWPathMonitor`: something that delivers path snapshots, one at a time and in order,
/// until it is cancelled.
///
/// The Apple conformance (`Platform/Apple/NWPathMonitorAdapter.swift`) is a few lines; tests use a fake
/// that delivers snapshots by hand.
package protocol PathMonitoring: Sendable {
    /// Starts delivering snapshots to `handler`, serially (never two calls at once), the current path
    /// first. Called once.
    func start(_ handler: @escaping @Sendable (PathSnapshot) -> Void)
    /// Stops delivery; a snapshot already queued on Apple's side may still arrive once.
    func cancel()
}
