/// The sources ``SyncEnvironment/init(monitoring:cloudKit:)`` gives an environment on Apple platforms:
/// one per requested part, each created only when its part is requested.
///
/// In particular no `CKContainer` is created unless the account is monitored (iCloudSyncStatusKit created
/// the default container in every case).
package struct AppleSources {
    /// The network source, when `.network` is monitored.
    package var connectivity: (any ConnectivityObserving)?
    /// The power source, when `.power` is monitored.
    package var power: (any PowerObserving)?
    /// The account source, when `.account` is monitored.
    package var account: CloudAccountSource?
    /// The iCloud Drive source, when `.cloudDrive` is monitored.
    package var cloudDrive: CloudDriveSource?
    /// The sync-event source, when `.syncEvent` is monitored.
    package var syncEvents: CloudKitSyncEventSource?
    /// The heat source (pressure is not read), when `.resources` is monitored.
    package var resources: (any ResourceObserving)?

    /// Creates the sources of the parts in `monitoring`.
    package init(
        monitoring: MonitoringOptions, cloudKit: CloudKitMonitoringOptions, factories: AppleSourceFactories,
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        connectivity = monitoring.contains(.network) ? factories.makeConnectivity() : nil
        power = monitoring.contains(.power) ? factories.makePower() : nil
        resources = monitoring.contains(.resources) ? factories.makeResources() : nil
        account =
            monitoring.contains(.account)
            ? CloudAccountSource(
                checker: factories.makeAccountChecker(cloudKit.containerIdentifier), retry: cloudKit.accountRetry,
                clock: clock)
            : nil
        cloudDrive = monitoring.contains(.cloudDrive) ? CloudDriveSource(reader: factories.makeUbiquityReader()) : nil
        syncEvents =
            monitoring.contains(.syncEvent)
            ? CloudKitSyncEventSource(
                observer: factories.makeEventObserver(), container: cloudKit.syncEventContainer,
                quotaExceeded: cloudKit.quotaExceeded)
            : nil
    }
}
