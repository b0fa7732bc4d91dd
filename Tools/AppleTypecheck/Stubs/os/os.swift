// The part of Apple's os module (the unified logging system's Swift API) that OSLogLogger.swift uses,
// written from the Apple documentation page above each declaration. Only ever emitted as an interface for
// the typecheck (Tools/AppleTypecheck/typecheck.sh); nothing here runs. The real `OSLogMessage` is
// checked further by the compiler (its interpolations must be literals it can fold); the stub is an
// ordinary string interpolation and cannot reproduce that.

/// https://developer.apple.com/documentation/os/logger
///
/// Sendable, as code that keeps a `Logger` in a `static let` under Swift 6 relies on.
public struct Logger: @unchecked Sendable {
    /// https://developer.apple.com/documentation/os/logger/init(subsystem:category:)
    public init(subsystem: String, category: String) {}

    /// https://developer.apple.com/documentation/os/logger/log(level:_:)
    public func log(level: OSLogType, _ message: OSLogMessage) {}
}

/// https://developer.apple.com/documentation/os/oslogtype
public struct OSLogType: Equatable, RawRepresentable, Sendable {
    /// The `os_log_type_t` value.
    public var rawValue: UInt8

    /// Creates a type from its `os_log_type_t` value.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// https://developer.apple.com/documentation/os/oslogtype/default
    public static let `default` = OSLogType(rawValue: 0x00)
    /// https://developer.apple.com/documentation/os/oslogtype/info
    public static let info = OSLogType(rawValue: 0x01)
    /// https://developer.apple.com/documentation/os/oslogtype/debug
    public static let debug = OSLogType(rawValue: 0x02)
    /// https://developer.apple.com/documentation/os/oslogtype/error
    public static let error = OSLogType(rawValue: 0x10)
    /// https://developer.apple.com/documentation/os/oslogtype/fault
    public static let fault = OSLogType(rawValue: 0x11)
}

/// https://developer.apple.com/documentation/os/oslogmessage
public struct OSLogMessage: ExpressibleByStringInterpolation, ExpressibleByStringLiteral {
    /// https://developer.apple.com/documentation/os/oslogmessage/interpolation
    public let interpolation: OSLogInterpolation

    /// Creates a message from its interpolation.
    public init(stringInterpolation: OSLogInterpolation) {
        interpolation = stringInterpolation
    }

    /// Creates a message from a literal.
    public init(stringLiteral value: String) {
        interpolation = OSLogInterpolation(literalCapacity: 0, interpolationCount: 0)
    }
}

/// https://developer.apple.com/documentation/os/osloginterpolation
public struct OSLogInterpolation: StringInterpolationProtocol {
    /// Creates an empty interpolation.
    public init(literalCapacity: Int, interpolationCount: Int) {}

    /// Appends a literal segment.
    public mutating func appendLiteral(_ literal: String) {}

    /// https://developer.apple.com/documentation/os/osloginterpolation/appendinterpolation(_:align:privacy:)-6tazr
    public mutating func appendInterpolation(
        _ argumentString: @autoclosure @escaping () -> String, align: OSLogStringAlignment = .none,
        privacy: OSLogPrivacy = .auto
    ) {}

    /// https://developer.apple.com/documentation/os/osloginterpolation/appendinterpolation(_:align:privacy:)-84m60
    public mutating func appendInterpolation<T>(
        _ value: @autoclosure @escaping () -> T, align: OSLogStringAlignment = .none,
        privacy: OSLogPrivacy = .auto
    ) where T: CustomStringConvertible {}

    /// https://developer.apple.com/documentation/os/osloginterpolation/appendinterpolation(_:format:align:privacy:)-8kli1
    public mutating func appendInterpolation(
        _ number: @autoclosure @escaping () -> Int, format: OSLogIntegerFormatting = .decimal,
        align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto
    ) {}
}

/// https://developer.apple.com/documentation/os/oslogprivacy
public struct OSLogPrivacy: Equatable, Sendable {
    private let level: Int

    /// https://developer.apple.com/documentation/os/oslogprivacy/public
    public static var `public`: OSLogPrivacy { OSLogPrivacy(level: 1) }
    /// https://developer.apple.com/documentation/os/oslogprivacy/private
    public static var `private`: OSLogPrivacy { OSLogPrivacy(level: 2) }
    /// https://developer.apple.com/documentation/os/oslogprivacy/auto
    public static var auto: OSLogPrivacy { OSLogPrivacy(level: 0) }
}

/// https://developer.apple.com/documentation/os/oslogstringalignment
public struct OSLogStringAlignment: Sendable {
    /// https://developer.apple.com/documentation/os/oslogstringalignment/none
    public static var none: OSLogStringAlignment { OSLogStringAlignment() }
}

/// https://developer.apple.com/documentation/os/oslogintegerformatting
public struct OSLogIntegerFormatting: Sendable {
    /// https://developer.apple.com/documentation/os/oslogintegerformatting/decimal
    public static var decimal: OSLogIntegerFormatting { OSLogIntegerFormatting() }
}
