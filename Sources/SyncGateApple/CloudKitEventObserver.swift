import SyncGateCore

#if canImport(CoreData) && canImport(CloudKit)
    import CoreData

    /// The ``CloudKitEventObserving`` seam on `NSPersistentCloudKitContainer.eventChangedNotification`.
    final class CloudKitEventObserver: CloudKitEventObserving {
        // Written once by `startObserving`, read once by `stopObserving`.
        nonisolated(unsafe) private var token: (any NSObjectProtocol)?

        func startObserving(_ handler: @escaping @Sendable (CloudKitEventFacts) -> Void) {
            token = NotificationCenter.default.addObserver(
                forName: NSPersistentCloudKitContainer.eventChangedNotification, object: nil, queue: nil
            ) { notification in
                let key = NSPersistentCloudKitContainer.eventNotificationUserInfoKey
                guard let event = notification.userInfo?[key] as? NSPersistentCloudKitContainer.Event else { return }
                let type: CloudKitEventTypeMirror =
                    switch event.type {
                    case .setup: .setup
                    case .import: .import
                    case .export: .export
                    @unknown default: .unknown
                    }
                handler(
                    CloudKitEventFacts(
                        identifier: event.identifier.uuidString,
                        container: notification.object.map { ObjectIdentifier($0 as AnyObject) }, type: type,
                        isFinished: event.endDate != nil, succeeded: event.succeeded,
                        error: event.error.map { CloudKitErrorFacts($0) }))
            }
        }

        func stopObserving() {
            if let token { NotificationCenter.default.removeObserver(token) }
        }
    }
#endif
