import Foundation
import SyncGateCore

/// One line for an error of a file operation, as the CLI prints it: the system's message and the path it
/// concerns, never a Foundation error's dump.
enum FileErrorText {
    /// `cannot create /srv/x: Permission denied` for a Foundation error: `action`, the path the error
    /// names (else `path`) and its POSIX cause's message (else its own description). Any other error's
    /// description as it is.
    static func describe(_ error: any Error, action: String = "cannot create", path: String) -> String {
        let foundation = error as NSError
        guard foundation.domain == NSCocoaErrorDomain || foundation.domain == NSPOSIXErrorDomain else {
            return "\(error)"
        }
        let underlying = (foundation.userInfo[NSUnderlyingErrorKey] as? any Error).map { $0 as NSError }
        let posix = [foundation, underlying].compactMap { $0 }.first {
            $0.domain == NSPOSIXErrorDomain
        }
        let failing = foundation.userInfo[NSFilePathErrorKey] as? String ?? path
        guard let posix else { return "\(action) \(failing): \(foundation.localizedDescription)" }
        return "\(action) \(failing): \(SystemErrorText.message(Int32(posix.code)))"
    }
}
