// The part of Apple's Network framework that NWPathMonitorAdapter.swift uses, written from the Apple
// documentation page above each declaration. Only ever emitted as an interface for the typecheck
// (Tools/AppleTypecheck/typecheck.sh); nothing here runs.
import Dispatch

/// https://developer.apple.com/documentation/network/nwpathmonitor
///
/// The page shows no `Sendable` conformance; the adapter holds the monitor in an `UncheckedSendable`
/// box, which compiles without a warning whether or not an SDK declares one.
public final class NWPathMonitor {
    /// https://developer.apple.com/documentation/network/nwpathmonitor/init()
    public init() {}

    /// https://developer.apple.com/documentation/network/nwpathmonitor/pathupdatehandler
    @preconcurrency public final var pathUpdateHandler: (@Sendable (NWPath) -> Void)?

    /// https://developer.apple.com/documentation/network/nwpathmonitor/start(queue:)
    public final func start(queue: DispatchQueue) {}

    /// https://developer.apple.com/documentation/network/nwpathmonitor/cancel()
    public final func cancel() {}
}

/// https://developer.apple.com/documentation/network/nwpath
public struct NWPath: Sendable {
    /// https://developer.apple.com/documentation/network/nwpath/status-swift.enum
    public enum Status: Sendable, Hashable {
        /// https://developer.apple.com/documentation/network/nwpath/status-swift.enum/satisfied
        case satisfied
        /// https://developer.apple.com/documentation/network/nwpath/status-swift.enum/unsatisfied
        case unsatisfied
        /// https://developer.apple.com/documentation/network/nwpath/status-swift.enum/requiresconnection
        case requiresConnection
    }

    /// https://developer.apple.com/documentation/network/nwpath/unsatisfiedreason-swift.enum
    public enum UnsatisfiedReason: Sendable, Hashable {
        /// https://developer.apple.com/documentation/network/nwpath/unsatisfiedreason-swift.enum/notavailable
        case notAvailable
        /// https://developer.apple.com/documentation/network/nwpath/unsatisfiedreason-swift.enum/cellulardenied
        case cellularDenied
        /// https://developer.apple.com/documentation/network/nwpath/unsatisfiedreason-swift.enum/wifidenied
        case wifiDenied
        /// https://developer.apple.com/documentation/network/nwpath/unsatisfiedreason-swift.enum/localnetworkdenied
        case localNetworkDenied
    }

    /// https://developer.apple.com/documentation/network/nwpath/status-swift.property
    public let status: NWPath.Status

    /// https://developer.apple.com/documentation/network/nwpath/unsatisfiedreason-swift.property
    public let unsatisfiedReason: NWPath.UnsatisfiedReason

    /// https://developer.apple.com/documentation/network/nwpath/isexpensive
    public let isExpensive: Bool

    /// https://developer.apple.com/documentation/network/nwpath/isconstrained
    public let isConstrained: Bool

    /// https://developer.apple.com/documentation/network/nwpath/usesinterfacetype(_:)
    public func usesInterfaceType(_ type: NWInterface.InterfaceType) -> Bool { false }
}

/// https://developer.apple.com/documentation/network/nwinterface
public struct NWInterface: Sendable, Hashable {
    /// https://developer.apple.com/documentation/network/nwinterface/interfacetype
    public enum InterfaceType: Sendable, Hashable {
        /// https://developer.apple.com/documentation/network/nwinterface/interfacetype/other
        case other
        /// https://developer.apple.com/documentation/network/nwinterface/interfacetype/wifi
        case wifi
        /// https://developer.apple.com/documentation/network/nwinterface/interfacetype/cellular
        case cellular
        /// https://developer.apple.com/documentation/network/nwinterface/interfacetype/wiredethernet
        case wiredEthernet
        /// https://developer.apple.com/documentation/network/nwinterface/interfacetype/loopback
        case loopback
    }
}
