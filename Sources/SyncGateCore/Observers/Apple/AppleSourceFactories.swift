/// How ``AppleSources`` creates each seam: on Apple platforms the system's (`Platform/Apple/`), in tests
/// fakes that count what was created.
package struct AppleSourceFactories: Sendable {
    /// The network source (`ConnectivityObserver()` over `NWPathMonitor`).
    package var makeConnectivity: @Sendable () -> any ConnectivityObserving
    /// The power source (`PowerObserver()` over `ProcessInfo`, `UIDevice` or IOKit).
    package var makePower: @Sendable () -> any PowerObserving
    /// The resources source (heat from `ProcessInfo.thermalState`, through the power seam).
    package var makeResources: @Sendable () -> any ResourceObserving
    /// The seam over one `CKContainer`, for the given identifier or the default container.
    package var makeAccountChecker: @Sendable (_ containerIdentifier: String?) -> any AccountStatusChecking
    /// The seam over `FileManager.ubiquityIdentityToken`.
    package var makeUbiquityReader: @Sendable () -> any UbiquityIdentityReading
    /// The seam over Core Data's sync-event notification.
    package var makeEventObserver: @Sendable () -> any CloudKitEventObserving

    /// Creates the factories of the six Apple sources.
    package init(
        makeConnectivity: @escaping @Sendable () -> any ConnectivityObserving,
        makePower: @escaping @Sendable () -> any PowerObserving,
        makeAccountChecker: @escaping @Sendable (_ containerIdentifier: String?) -> any AccountStatusChecking,
        makeUbiquityReader: @escaping @Sendable () -> any UbiquityIdentityReading,
        makeEventObserver: @escaping @Sendable () -> any CloudKitEventObserving,
        makeResources: @escaping @Sendable () -> any ResourceObserving
    ) {
        self.makeResources = makeResources
        self.makeConnectivity = makeConnectivity
        self.makePower = makePower
        self.makeAccountChecker = makeAccountChecker
        self.makeUbiquityReader = makeUbiquityReader
        self.makeEventObserver = makeEventObserver
    }
}
