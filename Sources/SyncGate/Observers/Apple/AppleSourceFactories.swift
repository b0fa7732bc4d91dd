/// How ``AppleSources`` creates each seam: on Apple platforms the system's (`Platform/Apple/`), in tests
/// fakes that count what was created.
struct AppleSourceFactories: Sendable {
    /// The network source (`ConnectivityObserver()` over `NWPathMonitor`).
    var makeConnectivity: @Sendable () -> any ConnectivityObserving
    /// The power source (`PowerObserver()` over `ProcessInfo`, `UIDevice` or IOKit).
    var makePower: @Sendable () -> any PowerObserving
    /// The seam over one `CKContainer`, for the given identifier or the default container.
    var makeAccountChecker: @Sendable (_ containerIdentifier: String?) -> any AccountStatusChecking
    /// The seam over `FileManager.ubiquityIdentityToken`.
    var makeUbiquityReader: @Sendable () -> any UbiquityIdentityReading
    /// The seam over Core Data's sync-event notification.
    var makeEventObserver: @Sendable () -> any CloudKitEventObserving
}
