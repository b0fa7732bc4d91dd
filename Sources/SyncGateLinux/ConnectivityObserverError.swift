import SyncGateCore

/// The reason a ``ConnectivityObserver`` could not start watching the network.
///
/// On Linux this means the kernel refused the rtnetlink sockets (a sandbox without `NETLINK_ROUTE`,
/// a seccomp filter, or a descriptor limit).
public struct ConnectivityObserverError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The system call or step that failed, such as `socket` or `link dump`.
    public let operation: String
    /// The `errno` value it failed with, or 0 when there is none.
    public let code: Int32

    /// Creates an error for a failed step.
    public init(operation: String, code: Int32) {
        self.operation = operation
        self.code = code
    }

    /// A one-line explanation, such as `socket failed: Address family not supported by protocol (errno 97)`.
    public var description: String {
        code == 0 ? "\(operation) failed" : "\(operation) failed: \(SystemErrorText.described(code))"
    }
}
