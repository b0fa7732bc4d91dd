import SyncGateApple
import SyncGateCore
import SyncGateLinux

extension SyncEnvironment {
    /// Creates an environment that watches the requested parts with the platform's own sources.
    ///
    /// A requested part gets a source only where the platform has one; the others stay unmonitored and
    /// read as satisfied (see ``MonitoringOptions``). Add sources the platform lacks, such as an account
    /// provider on Linux, through ``init(connectivity:power:account:cloudDrive:syncEvents:storage:resources:clock:)``.
    ///
    /// * **Linux**: `.network` → ``ConnectivityObserver`` (rtnetlink and sysfs), `.power` →
    ///   ``PowerObserver`` (sysfs power supplies and kernel uevents, systemd-logind's idle hint), `.storage` →
    ///   ``StorageObserver`` on the working directory, `.resources` → ``ResourceObserver`` (PSI and thermal
    ///   zones); account, cloud drive and sync events have no system source and stay unmonitored.
    /// * **Apple platforms**: `.network` → ``ConnectivityObserver`` (`NWPathMonitor`), `.power` →
    ///   ``PowerObserver`` (Low Power Mode; the battery from `UIDevice` or IOKit), `.account` →
    ///   ``CloudAccountSource`` (the default `CKContainer`), `.cloudDrive` → ``CloudDriveSource``,
    ///   `.syncEvent` → ``CloudKitSyncEventSource``, `.storage` → ``StorageObserver`` on the working
    ///   directory, `.resources` → heat from `ProcessInfo.thermalState` (pressure is not read there and
    ///   never blocks); ``init(monitoring:cloudKit:)`` chooses the container.
    /// * **Elsewhere**: `.power` → ``PowerObserver``, which reports ``PowerStatus/unrestricted`` there; the
    ///   network is not monitored.
    ///
    /// - Parameter monitoring: the parts to watch.
    public convenience init(monitoring: MonitoringOptions = .default) {
        self.init(monitoring: monitoring, cloudKit: CloudKitMonitoringOptions())
    }

    /// Creates an environment that watches the requested parts with the platform's own sources, with
    /// the settings of the iCloud sources (Apple platforms; other platforms have none and ignore them).
    ///
    /// Each source is created only when its part is requested: without `.account` no `CKContainer` is
    /// created.
    ///
    /// - Parameters:
    ///   - monitoring: the parts to watch.
    ///   - cloudKit: the CloudKit container, the Core Data container whose sync events count, the
    ///     full-storage hook and the account retry.
    public convenience init(monitoring: MonitoringOptions, cloudKit: CloudKitMonitoringOptions) {
        #if (!os(Linux) || SYNCGATE_APPLE_STUBS) && canImport(Network) && canImport(CloudKit) && canImport(CoreData)
            let sources = AppleSources(monitoring: monitoring, cloudKit: cloudKit, factories: .system)
            let storage: StorageObserver? = monitoring.contains(.storage) ? StorageObserver() : nil
            self.init(
                connectivity: sources.connectivity, power: sources.power, account: sources.account,
                cloudDrive: sources.cloudDrive, syncEvents: sources.syncEvents, storage: storage,
                resources: sources.resources)
        #else
            #if os(Linux) || canImport(Network)
                let connectivity: ConnectivityObserver? =
                    monitoring.contains(.network) ? ConnectivityObserver() : nil
            #else
                let connectivity: ConnectivityObserver? = nil
            #endif
            let power: PowerObserver? = monitoring.contains(.power) ? PowerObserver() : nil
            let storage: StorageObserver? = monitoring.contains(.storage) ? StorageObserver() : nil
            #if os(Linux)
                let resources: ResourceObserver? = monitoring.contains(.resources) ? ResourceObserver() : nil
                self.init(connectivity: connectivity, power: power, storage: storage, resources: resources)
            #else
                self.init(connectivity: connectivity, power: power, storage: storage)
            #endif
        #endif
    }
}
