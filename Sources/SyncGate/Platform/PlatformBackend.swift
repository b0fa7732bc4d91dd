/// The one shape of every platform backend behind ``ConnectivityObserver`` and ``PowerObserver``: a
/// broadcast, a provenance and a stop.
///
/// An observer is a platform-neutral face that holds one backend of this shape, chosen when the package
/// is compiled (``ConnectivityBackend``, ``PowerBackend``). Everything that touches the operating system
/// lives in the backend's folder (`Platform/Linux/`, `Platform/Apple/`), together with the observer's
/// initializers that build it.
protocol PlatformBackend<Status, Provenance>: Sendable {
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

#if os(Linux)
    /// The connectivity backend of this platform: rtnetlink, sysfs and NetworkManager.
    typealias ConnectivityBackend = LinuxConnectivityBackend
#elseif canImport(Network)
    /// The connectivity backend of this platform: `NWPathMonitor`, through its seam.
    typealias ConnectivityBackend = PathFollower
#else
    /// The connectivity backend of this platform: none, the status stays disconnected.
    typealias ConnectivityBackend = UnmonitoredBackend<ConnectivityStatus, ConnectivityProvenance>
#endif

#if os(Linux)
    /// The power backend of this platform: sysfs, kernel uevents and the power daemons on D-Bus.
    typealias PowerBackend = LinuxPowerBackend
#elseif canImport(Foundation) && (os(macOS) || os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))
    /// The power backend of this platform: `ProcessInfo`, `UIDevice` or IOKit, through their seam.
    typealias PowerBackend = ApplePowerFollower
#else
    /// The power backend of this platform: none, the status stays unrestricted.
    typealias PowerBackend = UnmonitoredBackend<PowerStatus, PowerProvenance>
#endif
