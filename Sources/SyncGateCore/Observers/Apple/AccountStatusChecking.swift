/// The seam over one `CKContainer`: asks the account status and reports `CKAccountChanged`.
///
/// Created only when the account is monitored (``AppleSourceFactories/makeAccountChecker``), so an app
/// that does not monitor the account never creates a container. The Apple conformance is
/// `Platform/Apple/CloudKitAccountChecker.swift`; tests use a fake.
package protocol AccountStatusChecking: Sendable {
    /// `CKContainer.accountStatus()`, its error described as ``CloudKitAccountError``.
    func accountStatus() async throws(CloudKitAccountError) -> CloudAccountStatusMirror
    /// Starts reporting `CKAccountChanged` to `onChange` (on any thread). Called once.
    func startObserving(_ onChange: @escaping @Sendable () -> Void)
    /// Stops reporting. Called once, after `startObserving`.
    func stopObserving()
}
