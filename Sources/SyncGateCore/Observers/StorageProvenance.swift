/// Which source decided a ``StorageStatus``, with notes on problems met with it.
public struct StorageProvenance: Sendable, Hashable, CustomStringConvertible {
    /// The source of ``StorageStatus/availableBytes`` and ``StorageStatus/capacityBytes``.
    public var freeSpace: StatusOrigin
    /// Problems met with the source (each once), such as a path that cannot be read.
    public var notes: [String]

    /// Creates a provenance record.
    public init(freeSpace: StatusOrigin, notes: [String] = []) {
        self.freeSpace = freeSpace
        self.notes = notes
    }

    /// `free space: statvfs`, then the notes.
    public var description: String {
        (["free space: \(freeSpace)"] + notes.map { "note: \($0)" }).joined(separator: "; ")
    }
}
