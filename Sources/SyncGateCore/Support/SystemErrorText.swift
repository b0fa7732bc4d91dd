#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The text of a system error number, as the C library's `strerror` gives it.
///
/// Every message that reports a failed system call names its error through this type, so they read
/// alike: the text alone (`No such file or directory`) or with the number
/// (`No such file or directory (errno 2)`).
package enum SystemErrorText {
    /// The C library's text for `code`: `Too many open files`.
    package static func message(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    /// The text for `code` followed by its number: `Too many open files (errno 24)`.
    package static func described(_ code: Int32) -> String {
        "\(message(code)) (errno \(code))"
    }
}
