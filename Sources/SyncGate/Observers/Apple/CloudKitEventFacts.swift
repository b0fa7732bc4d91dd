/// One `NSPersistentCloudKitContainer.Event`, as a platform-neutral value: what the sync-event seam
/// delivers for each `eventChangedNotification`.
///
/// Core Data posts each event twice: when it starts (no `endDate`) and when it ends (`endDate` set,
/// `succeeded` and `error` final).
struct CloudKitEventFacts: Sendable, Hashable {
    /// `event.identifier`, as a string.
    var identifier: String
    /// The container that posted it (`ObjectIdentifier` of the notification's object), if any.
    var container: ObjectIdentifier?
    /// `event.type`.
    var type: CloudKitEventTypeMirror
    /// Whether `event.endDate` is set.
    var isFinished: Bool
    /// `event.succeeded`.
    var succeeded: Bool
    /// `event.error`, when it failed.
    var error: CloudKitErrorFacts?
}
