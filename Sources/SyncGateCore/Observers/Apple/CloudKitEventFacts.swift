/// One `NSPersistentCloudKitContainer.Event`, as a platform-neutral value: what the sync-event seam
/// delivers for each `eventChangedNotification`.
///
/// Core Data posts each event twice: when it starts (no `endDate`) and when it ends (`endDate` set,
/// `succeeded` and `error` final).
package struct CloudKitEventFacts: Sendable, Hashable {
    /// `event.identifier`, as a string.
    package var identifier: String
    /// The container that posted it (`ObjectIdentifier` of the notification's object), if any.
    package var container: ObjectIdentifier?
    /// `event.type`.
    package var type: CloudKitEventTypeMirror
    /// Whether `event.endDate` is set.
    package var isFinished: Bool
    /// `event.succeeded`.
    package var succeeded: Bool
    /// `event.error`, when it failed.
    package var error: CloudKitErrorFacts?

    /// Creates the facts of one event.
    package init(
        identifier: String, container: ObjectIdentifier? = nil, type: CloudKitEventTypeMirror, isFinished: Bool,
        succeeded: Bool, error: CloudKitErrorFacts? = nil
    ) {
        self.identifier = identifier
        self.container = container
        self.type = type
        self.isFinished = isFinished
        self.succeeded = succeeded
        self.error = error
    }
}
