// The part of Apple's Core Data framework that CloudKitEventObserver.swift uses, written from the Apple
// documentation page above each declaration. Only ever emitted as an interface for the typecheck
// (Tools/AppleTypecheck/typecheck.sh); nothing here runs. Apple's Core Data re-exports Foundation.
@_exported import Foundation

/// https://developer.apple.com/documentation/coredata/nspersistentcontainer
open class NSPersistentContainer: NSObject {}

/// https://developer.apple.com/documentation/coredata/nspersistentcloudkitcontainer
open class NSPersistentCloudKitContainer: NSPersistentContainer {
    /// https://developer.apple.com/documentation/coredata/nspersistentcloudkitcontainer/eventchangednotification
    ///
    /// `class let` on the page: an imported Objective-C constant, which Swift source spells `static let`.
    public static let eventChangedNotification = NSNotification.Name(
        "NSPersistentCloudKitContainerEventChangedNotification")

    /// https://developer.apple.com/documentation/coredata/nspersistentcloudkitcontainer/eventnotificationuserinfokey
    public static let eventNotificationUserInfoKey = "event"

    /// https://developer.apple.com/documentation/coredata/nspersistentcloudkitcontainer/eventtype
    public enum EventType: Int, Sendable {
        /// https://developer.apple.com/documentation/coredata/nspersistentcloudkitcontainer/eventtype/setup
        case setup = 0
        /// https://developer.apple.com/documentation/coredata/nspersistentcloudkitcontainer/eventtype/import
        case `import` = 1
        /// https://developer.apple.com/documentation/coredata/nspersistentcloudkitcontainer/eventtype/export
        case export = 2
    }

    /// https://developer.apple.com/documentation/coredata/nspersistentcloudkitcontainer/event
    open class Event: NSObject {
        /// https://developer.apple.com/documentation/coredata/nspersistentcloudkitcontainer/event/identifier
        open var identifier: UUID { UUID() }

        /// https://developer.apple.com/documentation/coredata/nspersistentcloudkitcontainer/event/storeidentifier
        open var storeIdentifier: String { "" }

        /// https://developer.apple.com/documentation/coredata/nspersistentcloudkitcontainer/event/type
        open var type: NSPersistentCloudKitContainer.EventType { .setup }

        /// https://developer.apple.com/documentation/coredata/nspersistentcloudkitcontainer/event/startdate
        open var startDate: Date { Date() }

        /// https://developer.apple.com/documentation/coredata/nspersistentcloudkitcontainer/event/enddate
        open var endDate: Date? { nil }

        /// https://developer.apple.com/documentation/coredata/nspersistentcloudkitcontainer/event/succeeded
        open var succeeded: Bool { false }

        /// https://developer.apple.com/documentation/coredata/nspersistentcloudkitcontainer/event/error
        open var error: (any Error)? { nil }
    }
}
