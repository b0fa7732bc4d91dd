/// What a path names, as ``FileEventSource/kind(of:)`` reads it.
package enum FileObjectKind: Sendable, Hashable {
    /// Nothing: the path does not exist.
    case missing
    /// A directory.
    case directory
    /// Anything else: a file, a device, a socket.
    case other
}
