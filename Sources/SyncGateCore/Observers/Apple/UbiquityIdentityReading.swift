/// The seam over `FileManager.ubiquityIdentityToken` and `NSUbiquityIdentityDidChange`.
///
/// The Apple conformance is `Platform/Apple/UbiquityIdentityReader.swift`; tests use a fake.
package protocol UbiquityIdentityReading: Sendable {
    /// Whether `FileManager.default.ubiquityIdentityToken` is not `nil` (signed in with iCloud Drive on).
    func hasIdentity() -> Bool
    /// Starts reporting `NSUbiquityIdentityDidChange` to `onChange` (on any thread). Called once.
    func startObserving(_ onChange: @escaping @Sendable () -> Void)
    /// Stops reporting. Called once, after `startObserving`.
    func stopObserving()
}
