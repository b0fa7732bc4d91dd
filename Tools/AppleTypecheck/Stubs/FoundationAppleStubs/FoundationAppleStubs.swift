// swift-format-ignore-file: AlwaysUseLowerCamelCase
// What Apple's Foundation gives the adapters and swift-corelibs-foundation does not: members of Foundation
// types that exist only on Apple platforms, and the Core Foundation types and functions that Apple's
// Foundation re-exports (Linux's Foundation re-exports none, and its own CoreFoundation module imports
// them without Apple's Swift refinements: no toll-free bridging, no `CFRunLoopMode.defaultMode`). A stub
// named Foundation cannot exist beside the real one, so the adapters import this module only under
// `#if SYNCGATE_APPLE_STUBS`. Each declaration is written from the Apple documentation page above it;
// nothing here runs: the module is only ever emitted as an interface and imported by `swiftc -typecheck`.
import Dispatch
@_exported import Foundation

extension ProcessInfo {
    /// https://developer.apple.com/documentation/foundation/processinfo/islowpowermodeenabled
    public var isLowPowerModeEnabled: Bool { false }

    /// https://developer.apple.com/documentation/foundation/processinfo/thermalstate-swift.property
    public var thermalState: ProcessInfo.ThermalState { .nominal }

    /// https://developer.apple.com/documentation/foundation/processinfo/thermalstate-swift.enum
    public enum ThermalState: Int, Sendable {
        /// https://developer.apple.com/documentation/foundation/processinfo/thermalstate-swift.enum/nominal
        case nominal
        /// https://developer.apple.com/documentation/foundation/processinfo/thermalstate-swift.enum/fair
        case fair
        /// https://developer.apple.com/documentation/foundation/processinfo/thermalstate-swift.enum/serious
        case serious
        /// https://developer.apple.com/documentation/foundation/processinfo/thermalstate-swift.enum/critical
        case critical
    }

    /// https://developer.apple.com/documentation/foundation/processinfo/thermalstatedidchangenotification
    public static let thermalStateDidChangeNotification = NSNotification.Name(
        "NSProcessInfoThermalStateDidChangeNotification")
}

extension NSNotification.Name {
    /// https://developer.apple.com/documentation/foundation/nsnotification/name-swift.struct/nsprocessinfopowerstatedidchange
    public static let NSProcessInfoPowerStateDidChange = NSNotification.Name(
        "NSProcessInfoPowerStateDidChangeNotification")

    /// https://developer.apple.com/documentation/foundation/nsnotification/name-swift.struct/nsubiquityidentitydidchange
    public static let NSUbiquityIdentityDidChange = NSNotification.Name("NSUbiquityIdentityDidChangeNotification")
}

extension FileManager {
    /// https://developer.apple.com/documentation/foundation/filemanager/ubiquityidentitytoken
    public var ubiquityIdentityToken: (any NSCoding & NSCopying & NSObjectProtocol)? { nil }
}

// Core Foundation, as Apple's SDK imports it into Swift. CFString, CFArray and CFDictionary are
// toll-free bridged to NSString, NSArray and NSDictionary, which is what lets `cfString as String` and
// `cfArray as Array` compile on Apple platforms; here they are those Foundation classes, whose bridging
// swift-corelibs-foundation implements.

/// https://developer.apple.com/documentation/corefoundation/cftyperef
public typealias CFTypeRef = AnyObject

/// https://developer.apple.com/documentation/corefoundation/cfstring
public typealias CFString = NSString

/// https://developer.apple.com/documentation/corefoundation/cfarray
public typealias CFArray = NSArray

/// https://developer.apple.com/documentation/corefoundation/cfdictionary
public typealias CFDictionary = NSDictionary

/// https://developer.apple.com/documentation/corefoundation/cfrunloop
public final class CFRunLoop {}

/// https://developer.apple.com/documentation/corefoundation/cfrunloopsource
public final class CFRunLoopSource {}

/// https://developer.apple.com/documentation/corefoundation/cfrunloopmode
public struct CFRunLoopMode: Hashable, RawRepresentable, Sendable {
    /// The mode's name.
    public var rawValue: String

    /// Creates a mode from its name.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// https://developer.apple.com/documentation/corefoundation/cfrunloopmode/defaultmode
    public static let defaultMode = CFRunLoopMode(rawValue: "kCFRunLoopDefaultMode")

    /// https://developer.apple.com/documentation/corefoundation/cfrunloopmode/commonmodes
    public static let commonModes = CFRunLoopMode(rawValue: "kCFRunLoopCommonModes")
}

/// https://developer.apple.com/documentation/corefoundation/cfrunloopgetmain()
public func CFRunLoopGetMain() -> CFRunLoop! { nil }

/// https://developer.apple.com/documentation/corefoundation/cfrunloopaddsource(_:_:_:)
public func CFRunLoopAddSource(_ rl: CFRunLoop!, _ source: CFRunLoopSource!, _ mode: CFRunLoopMode!) {}

/// https://developer.apple.com/documentation/corefoundation/cfrunloopremovesource(_:_:_:)
public func CFRunLoopRemoveSource(_ rl: CFRunLoop!, _ source: CFRunLoopSource!, _ mode: CFRunLoopMode!) {}

// Dispatch's file-system object sources, which swift-corelibs-libdispatch does not have (its Linux build
// has `DispatchSource.FileSystemEvent` but no vnode source), and the `open` flag they are used with. A
// stub named Dispatch cannot stand beside the real one either, so these extend it here.

extension DispatchSource {
    /// https://developer.apple.com/documentation/dispatch/dispatchsource/makefilesystemobjectsource(filedescriptor:eventmask:queue:)
    public static func makeFileSystemObjectSource(
        fileDescriptor: Int32, eventMask: DispatchSource.FileSystemEvent, queue: DispatchQueue? = nil
    ) -> any DispatchSourceFileSystemObject {
        fatalError("a stub is never run")
    }
}

/// https://developer.apple.com/documentation/dispatch/dispatchsourcefilesystemobject
public protocol DispatchSourceFileSystemObject: DispatchSourceProtocol, Sendable {
    /// https://developer.apple.com/documentation/dispatch/dispatchsourcefilesystemobject/handle
    var handle: Int32 { get }
    /// https://developer.apple.com/documentation/dispatch/dispatchsourcefilesystemobject/data
    var data: DispatchSource.FileSystemEvent { get }
    /// https://developer.apple.com/documentation/dispatch/dispatchsourcefilesystemobject/mask
    var mask: DispatchSource.FileSystemEvent { get }
}

/// The C constant behind `FileDescriptor.OpenOptions.eventOnly`, as that page says:
/// https://developer.apple.com/documentation/system/filedescriptor/openoptions/eventonly
public var O_EVTONLY: Int32 { 0x8000 }
