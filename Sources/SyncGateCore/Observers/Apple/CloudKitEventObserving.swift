/// The seam over `NSPersistentCloudKitContainer.eventChangedNotification`: delivers each event's facts.
///
/// The Apple conformance is `Platform/Apple/CloudKitEventObserver.swift`; tests use a fake.
package protocol CloudKitEventObserving: Sendable {
    /// Starts delivering events, of every container, to `handler` (on any thread, one at a time). Called
    /// once.
    func startObserving(_ handler: @escaping @Sendable (CloudKitEventFacts) -> Void)
    /// Stops delivering. Called once, after `startObserving`.
    func stopObserving()
}
