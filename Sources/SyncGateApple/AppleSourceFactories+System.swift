import SyncGateCore

#if canImport(Network) && canImport(CloudKit) && canImport(CoreData)
    extension AppleSourceFactories {
        /// The system's seams: `NWPathMonitor`, `ProcessInfo` / `UIDevice` / IOKit, `CKContainer`,
        /// `FileManager`'s ubiquity identity, Core Data's sync events, and `ProcessInfo.thermalState`
        /// through a second power-facts reader for the resources part.
        package static let system = AppleSourceFactories(
            makeConnectivity: { ConnectivityObserver() },
            makePower: { PowerObserver() },
            makeAccountChecker: { CloudKitAccountChecker(containerIdentifier: $0) },
            makeUbiquityReader: { UbiquityIdentityReader() },
            makeEventObserver: { CloudKitEventObserver() },
            makeResources: { StatusObserver(backend: AppleResourceFollower(reader: ApplePowerFactsReader())) }
        )
    }
#endif
