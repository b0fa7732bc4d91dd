// swift-format-ignore-file: AlwaysUseLowerCamelCase
// The part of Apple's CloudKit framework that CloudKitAccountChecker.swift uses, written from the Apple
// documentation page above each declaration. Only ever emitted as an interface for the typecheck
// (Tools/AppleTypecheck/typecheck.sh); nothing here runs. Apple's CloudKit re-exports Foundation.
@_exported import Foundation

/// https://developer.apple.com/documentation/cloudkit/ckcontainer
///
/// The page shows no `Sendable` conformance; the adapter holds the container in an `UncheckedSendable`
/// box, which compiles without a warning whether or not an SDK declares one.
open class CKContainer: NSObject {
    /// https://developer.apple.com/documentation/cloudkit/ckcontainer/init(identifier:)
    public init(identifier containerIdentifier: String) {}

    /// https://developer.apple.com/documentation/cloudkit/ckcontainer/default()
    open class func `default`() -> CKContainer { CKContainer(identifier: "") }

    /// https://developer.apple.com/documentation/cloudkit/ckcontainer/accountstatus(completionhandler:)
    ///
    /// `func accountStatus(completionHandler: @escaping @Sendable (CKAccountStatus, (any Error)?) -> Void)`,
    /// which Swift also imports as the `async throws` method below.
    open func accountStatus(completionHandler: @escaping @Sendable (CKAccountStatus, (any Error)?) -> Void) {}

    /// The `async` form Swift imports for `accountStatus(completionHandler:)` (same page).
    open func accountStatus() async throws -> CKAccountStatus { .couldNotDetermine }
}

/// https://developer.apple.com/documentation/cloudkit/ckaccountstatus
public enum CKAccountStatus: Int, Sendable {
    /// https://developer.apple.com/documentation/cloudkit/ckaccountstatus/couldnotdetermine
    case couldNotDetermine = 0
    /// https://developer.apple.com/documentation/cloudkit/ckaccountstatus/available
    case available = 1
    /// https://developer.apple.com/documentation/cloudkit/ckaccountstatus/restricted
    case restricted = 2
    /// https://developer.apple.com/documentation/cloudkit/ckaccountstatus/noaccount
    case noAccount = 3
    /// https://developer.apple.com/documentation/cloudkit/ckaccountstatus/temporarilyunavailable
    case temporarilyUnavailable = 4
}

extension NSNotification.Name {
    /// https://developer.apple.com/documentation/foundation/nsnotification/name-swift.struct/ckaccountchanged
    public static let CKAccountChanged = NSNotification.Name("CKAccountChangedNotification")
}

/// https://developer.apple.com/documentation/cloudkit/ckerror
public struct CKError: Error, Sendable {
    /// https://developer.apple.com/documentation/cloudkit/ckerror/code
    ///
    /// Only the codes the adapter names (it maps every other one to its raw value).
    public enum Code: Int, Sendable {
        /// https://developer.apple.com/documentation/cloudkit/ckerror/code/partialfailure
        case partialFailure = 2
        /// https://developer.apple.com/documentation/cloudkit/ckerror/code/networkunavailable
        case networkUnavailable = 3
        /// https://developer.apple.com/documentation/cloudkit/ckerror/code/networkfailure
        case networkFailure = 4
        /// https://developer.apple.com/documentation/cloudkit/ckerror/code/serviceunavailable
        case serviceUnavailable = 6
        /// https://developer.apple.com/documentation/cloudkit/ckerror/code/requestratelimited
        case requestRateLimited = 7
        /// https://developer.apple.com/documentation/cloudkit/ckerror/code/notauthenticated
        case notAuthenticated = 9
        /// https://developer.apple.com/documentation/cloudkit/ckerror/code/zonebusy
        case zoneBusy = 23
        /// https://developer.apple.com/documentation/cloudkit/ckerror/code/quotaexceeded
        case quotaExceeded = 25
        /// https://developer.apple.com/documentation/cloudkit/ckerror/code/serverresponselost
        case serverResponseLost = 34
        /// https://developer.apple.com/documentation/cloudkit/ckerror/code/accounttemporarilyunavailable
        case accountTemporarilyUnavailable = 36
    }

    /// https://developer.apple.com/documentation/cloudkit/ckerror/code-swift.property
    public var code: CKError.Code { .partialFailure }

    /// https://developer.apple.com/documentation/cloudkit/ckerror/partialerrorsbyitemid
    public var partialErrorsByItemID: [AnyHashable: any Error]? { nil }

    /// https://developer.apple.com/documentation/cloudkit/ckerror/retryafterseconds
    public var retryAfterSeconds: Double? { nil }
}
