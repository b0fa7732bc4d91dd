/// Why a job store could not be opened or written; names the path and the cause.
public struct JobStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: Sendable, Hashable {
        /// The directory does not exist (and was not to be created).
        case directoryMissing
        /// The path exists but is not a directory.
        case notADirectory
        /// The directory could not be created.
        case cannotCreateDirectory
        /// Another process (or another store in this process) holds the directory's lock.
        case locked
        /// A file could not be opened, read, written or synced; see the cause.
        case ioFailure
        /// The journal file is not a SyncGate journal.
        case notAJournal
        /// The journal was written in a newer format version than this version of SyncGate reads; the
        /// cause names the version.
        case unsupportedVersion
        /// The store was closed.
        case closed
        /// A configuration value is invalid; the cause names the field and the value.
        case invalidConfiguration
        /// A record is larger than the journal reads back; the cause names its size and the limit.
        case recordTooLarge
        /// Every sequence number up to ``DurableScheduler/maximumSequence`` is taken: the store takes no
        /// new job; the cause names the limit.
        case sequencesExhausted
    }

    /// What went wrong.
    public var code: Code
    /// The file or directory concerned.
    public var path: String
    /// The cause, such as the system's message for `errno`.
    public var cause: String

    /// Creates an error.
    public init(_ code: Code, path: String, cause: String) {
        self.code = code
        self.path = path
        self.cause = cause
    }

    /// A line such as `job store directory /data/jobs is locked by another process (…)`.
    public var description: String {
        switch code {
        case .directoryMissing: "job store directory \(path) does not exist (\(cause))"
        case .notADirectory: "job store path \(path) is not a directory (\(cause))"
        case .cannotCreateDirectory: "cannot create job store directory \(path): \(cause)"
        case .locked: "job store \(path) is locked by another process or store (\(cause))"
        case .ioFailure: "job store file \(path): \(cause)"
        case .notAJournal: "\(path) is not a SyncGate job journal (\(cause))"
        case .unsupportedVersion: "job journal \(path) cannot be read: \(cause)"
        case .closed: "job store \(path) is closed (\(cause))"
        case .invalidConfiguration: "invalid configuration for job store \(path): \(cause)"
        case .recordTooLarge: "job store \(path) cannot take the record: \(cause)"
        case .sequencesExhausted: "job store \(path) has no sequence number left for a new job: \(cause)"
        }
    }
}
