/// What a path names, as ``FileEventSource/kind(of:)`` reads it.
package enum FileObjectKind: Sendable, Hashable {
    /// Nothing: the path does not exist.
    case missing
    /// A directory (not a symbolic link to one).
    case directory
    /// Anything else: a file, a symbolic link, a device.
    case other
}
