/// Every case of Core Data's `NSPersistentCloudKitContainer.EventType`, as a platform-neutral value.
package enum CloudKitEventTypeMirror: Sendable, Hashable, CaseIterable {
    /// `.setup`: setting up a store (zones, subscriptions).
    case setup
    /// `.import`: importing records into a store.
    case `import`
    /// `.export`: exporting managed objects from a store.
    case export
    /// A type added by a later SDK (`@unknown default`).
    case unknown

    /// The ``SyncEvent`` an unfinished event of this type means; an unknown type means none.
    var syncEvent: SyncEvent? {
        switch self {
        case .setup: .setup
        case .import: .importing
        case .export: .exporting
        case .unknown: nil
        }
    }
}
