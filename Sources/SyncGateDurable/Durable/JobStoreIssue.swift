import SyncGateCore

/// A problem met reading a job store; reported, never fatal.
public struct JobStoreIssue: Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem.
    public enum Kind: Sendable, Hashable {
        /// A record failed its checksum (or its length was impossible) and was skipped.
        case checksumMismatch
        /// A record passed its checksum but its contents could not be read (a newer format, say).
        case unreadableRecord
        /// The file ended inside a record (a write torn by a crash); the tail was cut off.
        case truncatedTail
    }

    /// What kind of problem.
    public var kind: Kind
    /// The file.
    public var path: String
    /// Where the bad bytes start.
    public var offset: Int
    /// How many bytes were skipped or cut off.
    public var length: Int
    /// Details, such as the reason a record could not be read.
    public var detail: String

    /// Creates an issue.
    public init(kind: Kind, path: String, offset: Int, length: Int, detail: String) {
        self.kind = kind
        self.path = path
        self.offset = offset
        self.length = length
        self.detail = detail
    }

    /// A line such as `/data/jobs/journal: skipped 40 bytes at offset 96: checksum mismatch`.
    public var description: String {
        switch kind {
        case .checksumMismatch:
            "\(path): skipped \(length) bytes at offset \(offset): checksum mismatch (\(detail))"
        case .unreadableRecord:
            "\(path): skipped a \(length)-byte record at offset \(offset): \(detail)"
        case .truncatedTail:
            "\(path): cut off a torn tail of \(length) bytes at offset \(offset) (\(detail))"
        }
    }
}
