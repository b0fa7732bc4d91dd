extension SyncEnvironment {
    /// Creates an environment that watches the requested parts with the platform's own sources.
    ///
    /// A requested part gets a source only where the platform has one; the others stay unmonitored and
    /// read as satisfied (see ``MonitoringOptions``). Add sources the platform lacks, such as an account
    /// provider on Linux, through ``init(connectivity:power:account:cloudDrive:syncEvents:storage:clock:)``.
    ///
    /// * **Linux**: `.network` → ``ConnectivityObserver`` (rtnetlink and sysfs), `.power` →
    ///   ``PowerObserver`` (sysfs power supplies and kernel uevents, systemd-logind's idle hint), `.storage` →
    ///   ``StorageObserver`` on the working directory; account, cloud drive and sync events
    ///   have no system source and stay unmonitored.
    /// * **Apple platforms**: `.network` → ``ConnectivityObserver`` (`NWPathMonitor`), `.power` →
    ///   ``PowerObserver`` (Low Power Mode), `.storage` → ``StorageObserver`` on the working directory; account, cloud drive and sync events have no SyncGate source
    ///   and stay unmonitored.
    /// * **Elsewhere**: `.power` → ``PowerObserver``, which reports ``PowerStatus/unrestricted`` there; the
    ///   network is not monitored.
    ///
    /// - Parameter monitoring: the parts to watch.
    public convenience init(monitoring: MonitoringOptions = .default) {
        #if os(Linux) || canImport(Network)
            let connectivity: ConnectivityObserver? = monitoring.contains(.network) ? ConnectivityObserver() : nil
        #else
            let connectivity: ConnectivityObserver? = nil
        #endif
        let power: PowerObserver? = monitoring.contains(.power) ? PowerObserver() : nil
        let storage: StorageObserver? = monitoring.contains(.storage) ? StorageObserver() : nil
        self.init(connectivity: connectivity, power: power, storage: storage)
    }
}
