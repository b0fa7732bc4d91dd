/// The one shape of every platform backend behind ``ConnectivityObserver`` and ``PowerObserver``: a
/// broadcast, a provenance and a stop.
///
/// An observer is a platform-neutral face that holds one backend of this shape (``ConnectivityBackend``,
/// ``PowerBackend``), built by the platform's initializers. Everything that touches the operating system
/// lives in the backend's target (`SyncGateLinux`, `SyncGateApple`), together with the observer's
/// initializers that build it.
package protocol PlatformBackend<Status, Provenance>: Sendable {
    /// The status value the backend publishes.
    associatedtype Status: Sendable & Equatable
    /// The record of which source decided each field of the status.
    associatedtype Provenance: Sendable

    /// The broadcast that holds the status; the observer publishes it as its own.
    var broadcast: StatusBroadcast<Status> { get }

    /// Which source decided each field of the current status, with notes on missing sources.
    var provenance: Provenance { get }

    /// Stops following the system (threads, sockets, timers, bus connections, notifications).
    ///
    /// Called once, from the observer's `deinit`; the observer finishes the broadcast afterwards.
    func stop()
}

/// The connectivity backend an observer holds: rtnetlink, sysfs and NetworkManager on Linux, `NWPathMonitor`
/// through its seam on Apple platforms, none elsewhere (the status stays disconnected).
package typealias ConnectivityBackend = any PlatformBackend<ConnectivityStatus, ConnectivityProvenance>

/// The power backend an observer holds: sysfs, kernel uevents and the power daemons on D-Bus on Linux,
/// `ProcessInfo`, `UIDevice` or IOKit through their seam on Apple platforms, none elsewhere (the status
/// stays unrestricted).
package typealias PowerBackend = any PlatformBackend<PowerStatus, PowerProvenance>
