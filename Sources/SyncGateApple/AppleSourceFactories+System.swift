import SyncGateCore

#if canImport(Network) && canImport(CloudKit) && canImport(CoreData)
    extension AppleSourceFactories {
        /// The system's seams: `NWPathMonitor`, `ProcessInfo` / `UIDevice` / IOKit, `CKContainer`,
        /// `FileManager`'s ubiquity identity, Core Data's sync events.
        package static let system = AppleSourceFactories(
            makeConnectivity: { ConnectivityObserver() },
            makePower: { PowerObserver() },
            makeAccountChecker: { CloudKitAccountChecker(containerIdentifier: $0) },
            makeUbiquityReader: { UbiquityIdentityReader() },
            makeEventObserver: { CloudKitEventObserver() }
        )
    }
#endif
