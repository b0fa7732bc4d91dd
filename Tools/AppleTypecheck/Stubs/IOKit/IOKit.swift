// swift-format-ignore-file: AlwaysUseLowerCamelCase
// The part of Apple's IOKit power-sources API (IOKit/ps/IOPowerSources.h, IOKit/ps/IOPSKeys.h) that
// ApplePowerFactsReader.swift uses on macOS, as Swift imports it: the header is not audited for Core
// Foundation memory management, so each returned object comes as `Unmanaged<…>!` (retained from a
// "Copy" function, unretained from a "Get" function, as the header's rule says), and its `#define`d C
// strings come as `String` constants. Apple's reference pages for these functions were not in the
// documentation the stubs were written from; each declaration cites Apple's published header instead.
// The CF types come from FoundationAppleStubs. Only ever emitted as an interface for the typecheck
// (Tools/AppleTypecheck/typecheck.sh); nothing here runs.
@_exported import FoundationAppleStubs

/// `typedef void (*IOPowerSourceCallbackType)(void *context);`
/// https://opensource.apple.com/source/IOKitUser/IOKitUser-184/ps.subproj/IOPowerSources.h.auto.html
public typealias IOPowerSourceCallbackType = @convention(c) (UnsafeMutableRawPointer?) -> Void

/// `CFTypeRef IOPSCopyPowerSourcesInfo(void);`
/// https://opensource.apple.com/source/IOKitUser/IOKitUser-184/ps.subproj/IOPowerSources.h.auto.html
public func IOPSCopyPowerSourcesInfo() -> Unmanaged<CFTypeRef>! { nil }

/// `CFArrayRef IOPSCopyPowerSourcesList(CFTypeRef blob);`
/// https://opensource.apple.com/source/IOKitUser/IOKitUser-184/ps.subproj/IOPowerSources.h.auto.html
public func IOPSCopyPowerSourcesList(_ blob: CFTypeRef!) -> Unmanaged<CFArray>! { nil }

/// `CFDictionaryRef IOPSGetPowerSourceDescription(CFTypeRef blob, CFTypeRef ps);`
/// https://opensource.apple.com/source/IOKitUser/IOKitUser-184/ps.subproj/IOPowerSources.h.auto.html
public func IOPSGetPowerSourceDescription(_ blob: CFTypeRef!, _ ps: CFTypeRef!) -> Unmanaged<CFDictionary>! {
    nil
}

/// `CFStringRef IOPSGetProvidingPowerSourceType(CFTypeRef snapshot);` (added to IOPowerSources.h after
/// the copy cited above; this is a later copy of the same header).
/// https://opensource.apple.com/source/IOKitUser/IOKitUser-1483.260.4/ps.subproj/IOPowerSources.h.auto.html
public func IOPSGetProvidingPowerSourceType(_ snapshot: CFTypeRef!) -> Unmanaged<CFString>! { nil }

/// `CFRunLoopSourceRef IOPSNotificationCreateRunLoopSource(IOPowerSourceCallbackType callback, void *context);`
/// https://opensource.apple.com/source/IOKitUser/IOKitUser-184/ps.subproj/IOPowerSources.h.auto.html
public func IOPSNotificationCreateRunLoopSource(
    _ callback: IOPowerSourceCallbackType!, _ context: UnsafeMutableRawPointer!
) -> Unmanaged<CFRunLoopSource>! { nil }

/// `#define kIOPSTypeKey "Type"`
/// https://opensource.apple.com/source/IOKitUser/IOKitUser-174/ps.subproj/IOPSKeys.h.auto.html
public var kIOPSTypeKey: String { "Type" }

/// `#define kIOPSInternalBatteryType "InternalBattery"` (IOPSKeys.h, as above)
public var kIOPSInternalBatteryType: String { "InternalBattery" }

/// `#define kIOPSCurrentCapacityKey "Current Capacity"` (IOPSKeys.h, as above)
public var kIOPSCurrentCapacityKey: String { "Current Capacity" }

/// `#define kIOPSMaxCapacityKey "Max Capacity"` (IOPSKeys.h, as above)
public var kIOPSMaxCapacityKey: String { "Max Capacity" }
