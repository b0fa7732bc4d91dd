import Dispatch
import SyncGateCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The default ``JobStore``: an append-only, checksummed journal in a directory of its own.
///
/// ```swift
/// let store = try FileJobStore(directory: appSupport.appendingPathComponent("sync-jobs").path)
/// ```
///
/// The directory holds `journal` (the records) and `lock`. Opening takes an exclusive `flock` on
/// `lock` and on the directory itself, so a second store on the same directory, in this process or
/// another, fails with ``JobStoreError/Code/locked`` even when `lock` was deleted; the locks go away
/// with the process.
///
/// Each record is a frame with a length and a CRC-32C. On open, a frame cut off by a crash (a torn
/// tail) is cut from the file, and a frame that fails its checksum is skipped; both are reported in
/// ``load()``'s issues, never thrown. While the store is open, the file holds space allocated ahead of
/// the records (zeros, ``allocationStep`` at a time), so that a record's sync writes its data without
/// changing the file's length; zeros after the last record are unused space, not a damaged tail, and
/// ``close()`` cuts them off. When records of resolved jobs outnumber those of unresolved ones
/// (and at least ``Configuration/compactionMinimumDeadRecords`` are dead), the journal is rewritten
/// with one record per unresolved job: a new file, synced, renamed over the old one, then the directory
/// synced. Compaction is maintenance: when it fails (a full disk, say) the failure is kept in
/// ``lastBackgroundError``, and neither ``append(_:)`` nor opening fails because of it. A failure before
/// the rename leaves the journal as it is and removes the temporary file; from the rename on, the store
/// writes to the new file. When the directory's sync fails after the rename, the new name may not be on
/// disk: no later sync counts until the journal is written afresh again (a new file, synced, renamed,
/// the directory synced), which the next sync does first; while that fails, each sync fails and withdraws
/// the synchronous submissions it covered, so no submission is acknowledged on a name that may not be
/// durable.
///
/// A journal in an older format version is written afresh in the current one when the store opens. When
/// that fails (a full disk, say), the store opens anyway and reads the journal as it is (the failure is
/// kept in ``lastBackgroundError``); ``append(_:)`` first tries that rewrite again, and throws while it
/// fails, so no record of the current format goes into a file of an older one.
///
/// A journal whose header is damaged is refused with ``JobStoreError/Code/notAJournal`` and left as it
/// is: a header that is not one, or one naming a format version its intact records are not written
/// in (opening it would drop them); ``salvage(journal:into:)`` copies its intact jobs into a new store.
///
/// Durability: with ``Configuration/Durability/synchronous`` (the default) a submission is on disk
/// (`fdatasync`) before ``append(_:)`` returns. Concurrent submissions share syncs (group commit): one
/// `fdatasync` covers every record written before it started, so a submitter whose record a sync that
/// began after its write covered returns without a sync of its own. The submitter that leads a sync first
/// waits briefly for the submitters the previous sync covered that are not back yet (a caller submitting
/// in a loop writes its next record right after): at most half the previous sync's time and never over
/// ``maximumGather``, and not at all for a lone submitter, so one sync covers them all instead of
/// every other sync covering half of them. ``appendWithoutBlocking(_:)`` gives the same durability to a
/// submitter that suspends instead: a syncer on a thread outside the Swift pool runs the syncs while any
/// such submission waits, sharing them with blocking submitters. With ``Configuration/Durability/batched(window:)`` it
/// is written to the file at once (so it survives the process being killed) and synced within the
/// window (so a power loss may lose the submissions of the last window). Other records (attempts,
/// resolutions) are written at once and synced within the window, or within one second in
/// synchronous mode; losing one to a power loss only makes a job run again.
///
/// When a sync fails, the kernel may have dropped the pages it could not write, and a later sync would
/// report success without them; so no later sync of that file counts. The journal is written afresh from
/// memory instead (a new file, synced, renamed over it, the directory synced), without the synchronous
/// submissions the failed sync covered: once it is on disk, each of their ``append(_:)`` calls throws
/// that sync's error, and every other record written before it (batched submissions, attempts,
/// resolutions) is on disk. When the journal cannot be written afresh either, those calls throw all the
/// same (each submission's withdrawal is written into the file, cut off or resolved by a record, but is
/// not known to be on disk, and the error says so), and the store takes no record until a new file
/// replaces the one whose sync failed: each ``append(_:)``, ``sync()`` and ``close()`` tries again first,
/// and throws an error naming the journal, the failed sync and the rewrite's failure while it fails.
public final class FileJobStore: JobStore {
    /// How a ``FileJobStore`` writes.
    public struct Configuration: Sendable, Hashable {
        /// When a submission reaches the disk.
        public enum Durability: Sendable, Hashable {
            /// Synced before `append` returns.
            case synchronous
            /// Written at once, synced within the window.
            case batched(window: Duration)
        }

        /// When a submission reaches the disk.
        public var durability: Durability
        /// The fewest dead records that trigger compaction (when they also outnumber the live ones).
        public var compactionMinimumDeadRecords: Int
        /// Whether a missing directory (and its parents) is created; each created level is synced in its
        /// parent before the journal is created in it.
        public var createDirectory: Bool

        /// Creates a configuration.
        public init(
            durability: Durability = .synchronous,
            compactionMinimumDeadRecords: Int = 1024,
            createDirectory: Bool = true
        ) {
            self.durability = durability
            self.compactionMinimumDeadRecords = compactionMinimumDeadRecords
            self.createDirectory = createDirectory
        }

        /// The first invalid field with its value, or `nil`.
        var validationError: String? {
            if case .batched(let window) = durability, window <= .zero {
                return "durability window must be positive, got \(window)"
            }
            if compactionMinimumDeadRecords < 0 {
                return "compactionMinimumDeadRecords must not be negative, got \(compactionMinimumDeadRecords)"
            }
            return nil
        }
    }

    /// Counts describing the journal now.
    public struct Statistics: Sendable, Hashable {
        /// Unresolved jobs.
        public var liveJobs: Int
        /// Records (and skipped regions) in the file, live or dead.
        public var records: Int
        /// The length of the records in bytes, the header included: the file's length once the store is
        /// closed. While it is open, the file may be longer, by space allocated ahead of the records.
        public var bytes: Int
        /// How many times the journal was compacted since it was opened.
        public var compactions: Int
        /// How many of ``bytes`` are known to be on disk (synced); less than ``bytes`` while a batched
        /// write waits for its window.
        public var syncedBytes: Int
    }

    /// A synchronous submission written and not yet known to be on disk.
    private struct AwaitingSync {
        /// The write's number (``State/writes`` after it).
        let write: UInt64
        let sequence: UInt64
        /// Where its frame starts in the file (`nil` once a compaction rewrote the file), and its length.
        var start: Int?
        let length: Int
        /// The thread that submitted it and waits, blocked; `nil` for a suspended submission
        /// (``appendWithoutBlocking(_:)``), which takes no part in gathering.
        let submitter: UInt?
    }

    /// What the sync lock guards: how much of the journal is known to be on disk.
    private struct SyncProgress {
        /// The file's length known to be on disk.
        var syncedLength = 0
    }

    /// The synchronous submitters' meeting point (group commit): what the syncs so far settled, and who
    /// waits for the sync under way. Its lock is the innermost and held only briefly, so a submitter that
    /// a sync covered returns without waiting for the sync lock, which the next leader may hold.
    private struct GroupCommit {
        /// Every write numbered up to this one is on disk.
        var syncedWrites: UInt64 = 0
        /// The synchronous submissions a failed sync withdrew, by write number, each until its submitter
        /// takes the error.
        var failed: [UInt64: JobStoreError] = [:]
        /// Whether a submitter leads a sync now.
        var hasLeader = false
        /// The threads of the submitters waiting for the leader's sync to end.
        var waiting: [UInt] = []
        /// What those submitters wait on: a group the first of them enters, left by the leader after its
        /// sync, which wakes them all with one call; `nil` while nobody waits. Every group made is left
        /// (a waiter registers only while a leader is syncing, and the leader takes the group when it
        /// ends), so none is released entered, which libdispatch treats as a bug on Apple platforms.
        var wake: DispatchGroup?
        /// The threads whose submissions the last successful sync covered, and how long it took.
        var lastBatch: Set<UInt> = []
        var lastSyncDuration: Duration = .zero
        /// While the leader gathers: how many waiting submitters (the leader counted) end its wait, and
        /// its wake-up, signalled once by the submitter that completes the count.
        var gathering: (target: Int, wake: DispatchSemaphore)?
        /// The submissions of ``FileJobStore/appendWithoutBlocking(_:)`` waiting for a sync, each resumed
        /// once by the syncer when a sync covered its write or its withdrawal's error is known.
        var suspended: [SuspendedSubmission] = []
        /// Whether a syncer runs for the suspended submissions: set by the submission that found none, cleared
        /// by the syncer in the critical section in which it finds none left, so one runs whenever any waits.
        var hasSyncer = false

        /// The group the current sync's waiters wait on, made and entered by the first of them.
        mutating func wakeForWaiter() -> DispatchGroup {
            if let wake { return wake }
            let group = DispatchGroup()
            group.enter()
            wake = group
            return group
        }
    }

    /// A submission of ``appendWithoutBlocking(_:)`` whose submitter is suspended until a sync covers it.
    private struct SuspendedSubmission {
        /// The write's number (``State/writes`` after it).
        let write: UInt64
        let continuation: CheckedContinuation<Void, any Error>
    }

    /// What a synchronous submitter does next.
    private enum CommitStep {
        case done
        case failed(JobStoreError)
        case lead
        /// Waits for the leader's sync to end, after waking a gathering leader whose count it completed.
        case wait(DispatchGroup, wakeLeader: DispatchSemaphore?)
    }

    /// The longest a sync's leader waits for the previous sync's submitters to write again.
    public static let maximumGather: Duration = .milliseconds(1)

    private struct State {
        var fd: Int32
        var replay: JournalReplay
        var frames: Int
        /// The length of the records (the header included): where the next frame is written.
        var length: Int
        /// The file's length: `length`, then the space allocated ahead of the records (zeros).
        var fileLength: Int
        /// After a failed allocation (a full disk), the record length under which no other is tried.
        var noAllocationBefore = 0
        var issues: [JobStoreIssue]
        /// The task that syncs the batched writes at the end of the window; `nil` while none is scheduled.
        var backgroundSync: Task<Void, Never>?
        var isClosed = false
        /// Set while ``close()`` syncs: no more writes.
        var isClosing = false
        /// The writes (frames appended) since the store was opened; numbers writes for group commit.
        var writes: UInt64 = 0
        /// The synchronous submissions written and not yet known to be on disk, in write order.
        var awaitingSync: [AwaitingSync] = []
        var compactions = 0
        var lastBackgroundError: JobStoreError?
        /// Whether the file was written in an older format version; it is rewritten when opened.
        var isOlderVersion = false
        /// Why the file, in an older format version, could not be written afresh in the current one when the
        /// store opened (a full disk, say): it reads as it is, and appends first try that rewrite again.
        var upgradeFailure: JobStoreError?
        /// The failed directory sync after the journal's last rename, while no rewrite has made up for it:
        /// the name may not be on disk, so a sync of the file alone makes nothing durable.
        var rewriteNeeded: JobStoreError?
        /// The failed sync of the file, while no new file written from memory has replaced it: the kernel
        /// may have dropped the pages it could not write (a later sync would report success without them),
        /// so the file may lack records written since its last good sync. Appends wait for a new file.
        var failedSync: JobStoreError?
    }

    /// The directory.
    public let directory: String
    /// The journal file.
    public let journalPath: String
    /// The settings.
    public let configuration: Configuration
    private let lockFD: Int32
    private let directoryFD: Int32
    private let state: LockedState<State>
    /// Serialises syncs and compaction (taken before `state`); holds what is known to be on disk. A
    /// synchronous submitter waits for it, then returns if a sync covered its write, or syncs itself.
    private let syncState = LockedState(SyncProgress())
    /// Group commit's state; taken after `syncState` and `state`, never around either.
    private let commits = LockedState(GroupCommit())
    /// Times the batched syncs.
    private let clock: any Clock<Duration>
    /// Where the syncs that no submitter waits for on its own thread run (the suspended submissions' and
    /// the batched writes'): a serial queue of this store, whose threads are libdispatch's own, created as
    /// needed (overcommitting), so a blocking `fdatasync` there never holds one of the threads that Swift's
    /// default executor shares out.
    private let syncQueue = DispatchQueue(label: "syncgate.journal-sync")
    /// Makes a file's written data durable (`fdatasync`); tests inject failures and pauses.
    private let syncData: @Sendable (Int32, String) throws -> Void
    /// Makes a rename in the directory durable (`fsync` of the directory); tests inject failures.
    private let syncDirectory: @Sendable (Int32, String) throws -> Void

    /// Opens (or creates) the store in `directory`, reads the journal and cuts a torn tail.
    ///
    /// - Throws: ``JobStoreError`` naming the path and the cause: the directory is missing (and not to
    ///   be created), not a directory, read-only or full, locked by another store, or the journal is not
    ///   a SyncGate journal.
    /// - Parameters:
    ///   - directory: the directory of the journal and its lock. A code point of U+10FF80...U+10FFFF
    ///     (the last 128 of Supplementary Private Use Area-B) stands for the single byte 0x80...0xFF, so a
    ///     directory whose name is not UTF-8 can be given; every other character is its UTF-8 encoding.
    ///   - configuration: how the store writes.
    ///   - clock: the clock that times a batched sync's window (``Configuration/Durability/batched(window:)``).
    public convenience init(
        directory: String, configuration: Configuration = Configuration(),
        clock: any Clock<Duration> = ContinuousClock()
    ) throws {
        try self.init(directory: directory, configuration: configuration, clock: clock) { fd, path in
            try POSIXFile.syncData(fd, path: path)
        }
    }

    /// Opens the store with `syncData` in place of `fdatasync` for the syncs that make appended records
    /// durable (a test's failing or pausing sync), and `syncDirectory` in place of the directory's `fsync`
    /// after a compaction's rename.
    package init(
        directory: String, configuration: Configuration = Configuration(),
        clock: any Clock<Duration> = ContinuousClock(),
        syncData: @escaping @Sendable (_ fd: Int32, _ path: String) throws -> Void,
        syncDirectory: @escaping @Sendable (_ fd: Int32, _ path: String) throws -> Void = { fd, path in
            try POSIXFile.syncDirectory(fd, path: path)
        }
    ) throws {
        self.syncData = syncData
        self.syncDirectory = syncDirectory
        if let reason = configuration.validationError {
            throw JobStoreError(.invalidConfiguration, path: directory, cause: reason)
        }
        let directory = directory.count > 1 && directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        self.directory = directory
        self.journalPath = directory + "/journal"
        self.configuration = configuration
        self.clock = clock

        switch try POSIXFile.isDirectory(directory) {
        case true?: break
        case false?: throw JobStoreError(.notADirectory, path: directory, cause: "it is a file")
        case nil:
            guard configuration.createDirectory else {
                throw JobStoreError(.directoryMissing, path: directory, cause: SystemErrorText.described(ENOENT))
            }
            if let code = POSIXFile.makeDirectories(directory) {
                throw JobStoreError(.cannotCreateDirectory, path: directory, cause: SystemErrorText.described(code))
            }
        }

        let lockPath = directory + "/lock"
        let lockFD = try POSIXFile.open(lockPath, O_RDWR | O_CREAT)
        if flock(lockFD, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            POSIXFile.closeDescriptor(lockFD)
            throw JobStoreError(.locked, path: lockPath, cause: SystemErrorText.described(code))
        }
        // The lock file can be deleted under its holder, the directory cannot: lock that too.
        let directoryFD: Int32
        do {
            directoryFD = try POSIXFile.open(directory, O_RDONLY | O_DIRECTORY)
        } catch {
            POSIXFile.unlockAndClose(lockFD)
            throw error
        }
        if flock(directoryFD, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            POSIXFile.closeDescriptor(directoryFD)
            POSIXFile.unlockAndClose(lockFD)
            throw JobStoreError(.locked, path: directory, cause: SystemErrorText.described(code))
        }
        self.lockFD = lockFD
        self.directoryFD = directoryFD
        do {
            // A compaction that failed left its temporary file, which may hold the last free space.
            POSIXFile.remove(journalPath + ".tmp")
            self.state = LockedState(
                try Self.openJournal(journalPath, directory: directory, directoryFD: directoryFD))
        } catch {
            POSIXFile.unlockAndClose(directoryFD)
            POSIXFile.unlockAndClose(lockFD)
            throw error
        }
        if state.withLock({ $0.isOlderVersion }) {
            do {
                try compact()
            } catch {
                // Opening never depends on free space: the journal reads as it is, and takes no record
                // until it is written in the current version.
                let failure = error as? JobStoreError ?? JobStoreError(.ioFailure, path: journalPath, cause: "\(error)")
                state.withLock { state in
                    if state.isOlderVersion { state.upgradeFailure = failure }
                    state.lastBackgroundError = failure
                }
            }
        } else {
            // Opening never depends on free space: the journal reads as it is.
            compactQuietly()
        }
    }

    deinit {
        state.withLock { state in
            if !state.isClosed { POSIXFile.closeDescriptor(state.fd) }
        }
        POSIXFile.unlockAndClose(directoryFD)
        POSIXFile.unlockAndClose(lockFD)
    }

    private static func openJournal(_ path: String, directory: String, directoryFD: Int32) throws -> State {
        var bytes: [UInt8] = []
        if POSIXFile.exists(path) {
            let fd = try POSIXFile.open(path, O_RDONLY)
            defer { POSIXFile.closeDescriptor(fd) }
            bytes = try POSIXFile.readAll(fd, path: path)
        }
        if bytes.count < JournalCodec.header.count && JournalCodec.header.starts(with: bytes) {
            // A new journal, or one whose creation never completed: write the header atomically.
            POSIXFile.closeDescriptor(try POSIXFile.replaceFile(path, with: JournalCodec.header))
            try POSIXFile.syncDirectory(directoryFD, path: directory)
            bytes = JournalCodec.header
        }
        guard let version = JournalCodec.version(ofHeader: bytes) else {
            throw JobStoreError(
                .notAJournal, path: path,
                cause: "the file does not start with a header such as \"SGJRNL01\"; if it is a damaged journal, "
                    + "FileJobStore.salvage(journal: \"\(path)\", into: <a new directory>) copies its intact jobs "
                    + "into a new store")
        }
        guard JournalCodec.readableVersions.contains(version) else {
            throw JobStoreError(
                .unsupportedVersion, path: path,
                cause: "the journal has format version \(version); this version of SyncGate reads versions "
                    + "\(JournalCodec.readableVersions.lowerBound) to \(JournalCodec.readableVersions.upperBound)")
        }
        var replay = JournalReplay()
        let scan = bytes.withUnsafeBytes { JournalScan($0, path: path, version: version) { replay.apply($0) } }
        if let (offset, other) = scan.recordOfOtherVersion {
            // Opening would drop every record the header's version cannot read, and rewrite the file
            // without them: leave it untouched instead.
            throw JobStoreError(
                .notAJournal, path: path,
                cause: "the header names format version \(version), but the record at offset \(offset) is one of "
                    + "version \(other), so the header is damaged; FileJobStore.salvage(journal: \"\(path)\", "
                    + "into: <a new directory>) copies its intact jobs into a new store")
        }
        let fd = try POSIXFile.open(path, O_WRONLY)
        var fileLength = bytes.count
        if scan.validLength + scan.unusedLength < bytes.count {
            do {
                try POSIXFile.truncate(fd, to: scan.validLength, path: path)
                try POSIXFile.syncData(fd, path: path)
            } catch {
                POSIXFile.closeDescriptor(fd)
                throw error
            }
            fileLength = scan.validLength
        }
        return State(
            fd: fd, replay: replay, frames: scan.frameCount, length: scan.validLength, fileLength: fileLength,
            issues: scan.issues, isOlderVersion: version != JournalCodec.currentVersion)
    }

    // MARK: - JobStore

    /// The unresolved jobs in submission order, and the problems met when the journal was opened.
    public func load() throws -> JobStoreContents {
        try state.withLock { state in
            if state.isClosed { throw JobStoreError(.closed, path: journalPath, cause: "load after close()") }
            return JobStoreContents(
                jobs: state.replay.orderedJobs,
                highestSequence: state.replay.highestSequence,
                issues: state.issues
            )
        }
    }

    /// Appends a record; a submission is synced first when the durability is synchronous.
    ///
    /// When this throws, the store is unchanged: a partial write is cut off, and a submission whose
    /// sync failed is withdrawn. A compaction that fails after the record is written does not make it
    /// throw. After a failed sync, nothing is written until the journal is written afresh from memory:
    /// this tries that first, and throws when it fails.
    public func append(_ record: JobRecord) throws {
        let (frame, isSubmission, syncsNow) = try prepare(record)
        let write = try writeRecord(record, frame: frame, syncsNow: syncsNow, submitter: Self.currentThread)
        if syncsNow { try awaitSync(of: write) }
        if isSubmission { compactQuietly() }
    }

    /// Appends a record like ``append(_:)``, with the same durability and errors, suspending the calling
    /// task instead of blocking its thread while a submission is synced.
    ///
    /// The record is written on the calling thread (a `write(2)` into the page cache). A synchronous
    /// submission then waits, suspended, for a sync run on a thread outside the Swift pool, which one
    /// `fdatasync` covers together with every other submission written before it began, blocking or
    /// suspended (group commit); the syncer also compacts the journal when needed. Cancelling the task
    /// does not interrupt the wait: the record is in the file, and this returns or throws as the sync
    /// decides. After a failed sync, the journal is written afresh from memory before the record, as
    /// ``append(_:)`` does, but on the syncing thread, with the calling task suspended meanwhile.
    public func appendWithoutBlocking(_ record: JobRecord) async throws {
        let (frame, isSubmission, syncsNow) = try prepare(record)
        let write = try await writeRecordSuspending(record, frame: frame, syncsNow: syncsNow)
        if syncsNow {
            try await awaitSyncSuspended(of: write)
        } else if isSubmission && compactionNeeded {
            let store = self
            syncQueue.async { store.compactQuietly() }
        }
    }

    /// The frame of `record`, whether it is a submission, and whether it is synced before its append
    /// returns.
    ///
    /// - Throws: ``JobStoreError/Code/recordTooLarge`` when its body is over the journal's limit.
    private func prepare(_ record: JobRecord) throws -> (frame: [UInt8], isSubmission: Bool, syncsNow: Bool) {
        let body = JournalCodec.encode(record)
        guard body.count <= JournalCodec.maximumBodyLength else {
            throw JobStoreError(
                .recordTooLarge, path: journalPath,
                cause: "a record of job sequence \(record.sequence) is \(body.count) bytes, over the limit of "
                    + "\(JournalCodec.maximumBodyLength) bytes")
        }
        var isSubmission = false
        if case .submitted = record { isSubmission = true }
        return (JournalCodec.frame(body: body), isSubmission, isSubmission && configuration.durability == .synchronous)
    }

    /// Writes the frame of `record` and applies it; returns the write's number. Nothing goes into a file
    /// whose sync failed (``State/failedSync``): the journal is written afresh from memory first
    /// (``rewriteJournal(after:_:)``), and the record is refused when that fails.
    private func writeRecord(_ record: JobRecord, frame: [UInt8], syncsNow: Bool, submitter: UInt?) throws -> UInt64 {
        while true {
            if let written = try writeRecordOnce(record, frame: frame, syncsNow: syncsNow, submitter: submitter) {
                return written
            }
            try rewriteBeforeWriting()
        }
    }

    /// ``writeRecord(_:frame:syncsNow:submitter:)`` for a suspended submitter: a rewrite it needs first runs
    /// on ``syncQueue`` (``rewriteBeforeWritingSuspended()``).
    private func writeRecordSuspending(_ record: JobRecord, frame: [UInt8], syncsNow: Bool) async throws -> UInt64 {
        while true {
            if let written = try writeRecordOnce(record, frame: frame, syncsNow: syncsNow, submitter: nil) {
                return written
            }
            try await rewriteBeforeWritingSuspended()
        }
    }

    /// Writes the frame of `record` and applies it, returning the write's number, or returns `nil` without
    /// writing when the journal must be written afresh first (``rewriteBeforeWriting()``).
    private func writeRecordOnce(
        _ record: JobRecord, frame: [UInt8], syncsNow: Bool, submitter: UInt?
    ) throws -> UInt64? {
        try state.withLock { state in
            if state.isClosed || state.isClosing {
                throw JobStoreError(.closed, path: journalPath, cause: "append after close()")
            }
            if state.failedSync != nil || state.upgradeFailure != nil { return nil }
            let start = state.length
            try writeFrame(frame, &state)
            state.replay.apply(record)
            if syncsNow {
                state.awaitingSync.append(
                    AwaitingSync(
                        write: state.writes, sequence: record.sequence, start: start, length: frame.count,
                        submitter: submitter))
            } else if state.backgroundSync == nil {
                state.backgroundSync = backgroundSyncTask()
            }
            return state.writes
        }
    }

    /// Writes the journal afresh from memory because no record may go into the file now (a sync of it
    /// failed, or it is in an older format version); throws when that fails.
    private func rewriteBeforeWriting() throws {
        try syncState.withLock { try rewriteJournal(after: nil, &$0) }
    }

    /// ``rewriteBeforeWriting()`` on ``syncQueue``, the calling task suspended until it is done: the
    /// rewrite writes and syncs the whole journal, which must not hold a thread of the Swift pool.
    private func rewriteBeforeWritingSuspended() async throws {
        let store = self
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            syncQueue.async {
                continuation.resume(with: Result { try store.rewriteBeforeWriting() })
            }
        }
    }

    /// The space allocated ahead of the records when they reach the end of what was allocated.
    ///
    /// A record written into allocated space leaves the file's length as it is, so its sync writes the
    /// data alone; one that lengthens the file makes its sync commit the file system's metadata too.
    package static let allocationStep = 4 << 10

    /// Writes `frame` after the records, into allocated space when there is some (see
    /// ``allocationStep``), and counts it. When the write fails, the file is cut back to the records
    /// and the error thrown: the store is unchanged.
    private func writeFrame(_ frame: [UInt8], _ state: inout State) throws {
        let end = state.length + frame.count
        if end > state.fileLength && end > state.noAllocationBefore {
            let allocated = end + Self.allocationStep
            if POSIXFile.allocate(state.fd, from: state.fileLength, to: allocated) {
                state.fileLength = allocated
            } else {
                // A full disk: records lengthen the file, and allocation is tried again a step later.
                state.noAllocationBefore = allocated
            }
        }
        do {
            try POSIXFile.writeAll(state.fd, frame, at: state.length, path: journalPath)
        } catch {
            // Remove a partial frame so the file stays well formed.
            try? POSIXFile.truncate(state.fd, to: state.length, path: journalPath)
            state.fileLength = state.length
            throw error
        }
        state.length = end
        state.fileLength = max(state.fileLength, end)
        state.frames += 1
        state.writes += 1
    }

    /// Returns once write number `write` is on disk: at once when a sync that began after it covered it
    /// (another submitter led that sync), else after a sync this caller leads, which covers every write
    /// made before it began.
    ///
    /// - Parameter forSuspended: whether the caller is the syncer (``runSyncer()``), which waits for the
    ///   suspended submissions: a failure of `write`'s submission ends its wait and is left for the
    ///   submission to take, and a sync it leads starts at once, without gathering, so that the suspended
    ///   submitters' next records, written as their tasks run again, go into the next sync.
    /// - Throws: the error of the failed sync that covered the write; the submission is withdrawn then.
    private func awaitSync(of write: UInt64, forSuspended: Bool = false) throws {
        var hasLed = false
        let thread = Self.currentThread
        while true {
            let step: CommitStep = commits.withLock { commits in
                if !forSuspended, let error = commits.failed.removeValue(forKey: write) { return .failed(error) }
                if commits.syncedWrites >= write || commits.failed[write] != nil { return .done }
                // A sync this caller led settles its write, unless the store was closed meanwhile.
                if hasLed {
                    return .failed(JobStoreError(.closed, path: journalPath, cause: "closed before the sync"))
                }
                if !commits.hasLeader {
                    commits.hasLeader = true
                    return .lead
                }
                commits.waiting.append(thread)
                var leader: DispatchSemaphore?
                if let gathering = commits.gathering, commits.waiting.count + 1 >= gathering.target {
                    commits.gathering = nil
                    leader = gathering.wake
                }
                return .wait(commits.wakeForWaiter(), wakeLeader: leader)
            }
            switch step {
            case .done: return
            case .failed(let error): throw error
            case .wait(let wake, let leader):
                leader?.signal()
                wake.wait()
            case .lead:
                hasLed = true
                if !forSuspended { gather(leader: thread) }
                // The outcome reaches every submitter through `commits`, this one included.
                _ = try? syncState.withLock { try syncLocked(&$0) }
                // Every submitter waiting now is woken at once, with one call; those the sync did not
                // cover find so and wait again, or lead the next one.
                let wake = commits.withLock { commits in
                    commits.hasLeader = false
                    commits.waiting.removeAll(keepingCapacity: true)
                    return commits.wake.take()
                }
                wake?.leave()
            }
        }
    }

    /// Before the sync it leads, waits until the submitters the last sync covered are all waiting again
    /// (they write their next submissions, which this sync then covers too), for at most half the last
    /// sync's time and ``maximumGather``. Returns at once when all are there already, as for a lone
    /// submitter. The bound is real time: it weighs the wait against the sync's own.
    private func gather(leader: UInt) {
        let wake = DispatchSemaphore(value: 0)
        let bound: Duration? = commits.withLock { commits in
            var present = Set(commits.waiting)
            present.insert(leader)
            let expected = commits.lastBatch.subtracting(present).count
            let bound = min(commits.lastSyncDuration / 2, Self.maximumGather)
            guard expected > 0, bound > .zero else { return nil }
            commits.gathering = (commits.waiting.count + 1 + expected, wake)
            return bound
        }
        guard let bound else { return }
        if wake.wait(timeout: .now() + bound.inSeconds) == .timedOut {
            // A submitter that completes the count after this signals a semaphore nobody waits on.
            commits.withLock { $0.gathering = nil }
        }
    }

    /// Suspends until write number `write` is on disk: at once when a sync covered it already, else until
    /// the syncer (``runSyncer()``) resumes it after a sync that covered it.
    ///
    /// - Throws: the error of the failed sync that covered the write (the submission is withdrawn then), or
    ///   ``JobStoreError/Code/closed`` when the store was closed before a sync covered it.
    private func awaitSyncSuspended(of write: UInt64) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let step: (result: Result<Void, JobStoreError>?, startsSyncer: Bool) = commits.withLock { commits in
                if let error = commits.failed.removeValue(forKey: write) { return (.failure(error), false) }
                if commits.syncedWrites >= write { return (.success(()), false) }
                commits.suspended.append(SuspendedSubmission(write: write, continuation: continuation))
                let startsSyncer = !commits.hasSyncer
                commits.hasSyncer = true
                return (nil, startsSyncer)
            }
            if let result = step.result { return continuation.resume(with: result) }
            if step.startsSyncer {
                let store = self
                syncQueue.async { store.runSyncer() }
            }
        }
    }

    /// Syncs for the suspended submissions until none is left, on ``syncQueue``: leads a
    /// sync (or waits for a blocking leader's) that covers the last of them, resumes each that a sync
    /// covered or a failed sync withdrew, and compacts the journal when needed.
    private func runSyncer() {
        while true {
            let target: UInt64? = commits.withLock { commits in
                guard let last = commits.suspended.lazy.map(\.write).max() else {
                    commits.hasSyncer = false
                    return nil
                }
                return last
            }
            guard let target else { return }
            var closedFailure: JobStoreError?
            do {
                try awaitSync(of: target, forSuspended: true)
            } catch {
                // The store was closed before a sync covered the target.
                closedFailure = error as? JobStoreError ?? JobStoreError(.closed, path: journalPath, cause: "\(error)")
            }
            let settled = commits.withLock { commits in
                var settled: [(CheckedContinuation<Void, any Error>, Result<Void, JobStoreError>)] = []
                var waiting: [SuspendedSubmission] = []
                for submission in commits.suspended {
                    if let error = commits.failed.removeValue(forKey: submission.write) {
                        settled.append((submission.continuation, .failure(error)))
                    } else if commits.syncedWrites >= submission.write {
                        settled.append((submission.continuation, .success(())))
                    } else if let closedFailure, submission.write <= target {
                        settled.append((submission.continuation, .failure(closedFailure)))
                    } else {
                        waiting.append(submission)
                    }
                }
                commits.suspended = waiting
                return settled
            }
            for (continuation, result) in settled { continuation.resume(with: result) }
            compactQuietly()
        }
    }

    /// An identifier of the calling thread, distinct among live threads.
    private static var currentThread: UInt {
        #if canImport(Darwin)
            UInt(bitPattern: pthread_self())
        #else
            UInt(pthread_self())
        #endif
    }

    /// Syncs every write made so far; the caller holds the sync lock.
    ///
    /// When the sync fails, the pages it could not write may be lost although the file reads them back, and
    /// a later sync would report success without them: the journal is written afresh from memory
    /// (``rewriteJournal(after:_:)``), without the synchronous submissions written until then (some may
    /// have been written while the sync ran), each of whose submitters gets the sync's error. This throws
    /// only when that rewrite fails too. While the file or its name is in doubt (``State/failedSync``,
    /// ``State/rewriteNeeded``), no sync of the file counts: the sync is that rewrite.
    private func syncLocked(_ progress: inout SyncProgress) throws {
        let (fd, length, writes, isClosed, inDoubt) = state.withLock {
            ($0.fd, $0.length, $0.writes, $0.isClosed, $0.failedSync != nil || $0.rewriteNeeded != nil)
        }
        // Bytes of an earlier run may be unsynced too (the process died before its sync).
        let syncedWrites = commits.withLock { $0.syncedWrites }
        guard !isClosed, inDoubt || syncedWrites < writes || progress.syncedLength < length else { return }
        if inDoubt { return try rewriteJournal(after: nil, &progress) }
        let started = ContinuousClock.now
        do {
            try syncData(fd, journalPath)
        } catch {
            let failure =
                error as? JobStoreError ?? JobStoreError(.ioFailure, path: journalPath, cause: "\(error)")
            return try rewriteJournal(after: failure, &progress)
        }
        let duration = started.duration(to: .now)
        progress.syncedLength = length
        commits.withLock { $0.syncedWrites = max($0.syncedWrites, writes) }
        let batch: Set<UInt> = state.withLock { state in
            let covered = state.awaitingSync.prefix { $0.write <= writes }
            defer { state.awaitingSync.removeFirst(covered.count) }
            return Set(covered.compactMap(\.submitter))
        }
        if !batch.isEmpty {
            commits.withLock { commits in
                commits.lastBatch = batch
                commits.lastSyncDuration = duration
            }
        }
    }

    /// Writes the journal afresh from memory (``rewriteLocked(_:_:)``) because no sync of the file counts:
    /// `failure`, a sync that just failed, or an earlier failure the state keeps; or the journal is in an
    /// older format version that opening could not rewrite. The caller holds the sync lock.
    ///
    /// After `failure`, every synchronous submission waiting for a sync is withdrawn first, so the new
    /// journal lacks it; its submitter gets `failure` once that journal is on disk under its name. When the
    /// rewrite fails, every submission still waiting is withdrawn too, and each submitter gets the error
    /// then; the withdrawals are written into the file the journal's name leads to (a frame cut off when it
    /// is the last, else resolved by a record) but cannot be known to be on disk, which the error says.
    /// Until a new file replaces one whose sync failed, appends first try this again, and throw when it
    /// fails.
    ///
    /// - Throws: the rewrite's failure, naming the journal, when it fails.
    private func rewriteJournal(after failure: JobStoreError?, _ progress: inout SyncProgress) throws {
        let (withdrawn, written, rewriteFailure) = state.withLock {
            state -> ([AwaitingSync], UInt64?, JobStoreError?) in
            var withdrawn: [AwaitingSync] = []
            if let failure {
                state.failedSync = failure
                state.lastBackgroundError = failure
                withdrawn = takeAwaitingSubmissions(&state)
            }
            let doubt = state.failedSync ?? state.rewriteNeeded
            guard doubt != nil || state.upgradeFailure != nil else { return ([], nil, nil) }
            let failedFile = state.fd
            do {
                return (withdrawn, try rewriteLocked(&state, &progress), nil)
            } catch {
                let why =
                    doubt.map { "a sync failed (\($0.cause)), and writing the journal afresh failed too" }
                    ?? "the journal is in an older format version, and writing it afresh in the current one failed"
                let rewriteFailure = JobStoreError(.ioFailure, path: journalPath, cause: "\(why): \(error)")
                let rest = takeAwaitingSubmissions(&state)
                // Withdrawn before the rewrite: not in a new file, only in the one they were written in.
                let unwritten = state.fd == failedFile ? withdrawn + rest : rest
                // Last first, so that frames at the end are cut off.
                for submission in unwritten.reversed() { withdrawFromFile(submission, &state, &progress) }
                return (withdrawn + rest, nil, rewriteFailure)
            }
        }
        // Published only now: once the journal without the withdrawn submissions is on disk, or failed to be.
        let submitterFailure = rewriteFailure.map(Self.withdrawalInDoubt) ?? failure
        commits.withLock { commits in
            if let submitterFailure {
                for submission in withdrawn { commits.failed[submission.write] = submitterFailure }
            }
            if let written { commits.syncedWrites = max(commits.syncedWrites, written) }
        }
        if let rewriteFailure { throw rewriteFailure }
    }

    /// Takes the synchronous submissions waiting for a sync out of the journal's state (their jobs resolve
    /// as discarded), for a withdrawal.
    private func takeAwaitingSubmissions(_ state: inout State) -> [AwaitingSync] {
        let taken = state.awaitingSync
        state.awaitingSync.removeAll()
        for submission in taken {
            state.replay.apply(.resolved(sequence: submission.sequence, resolution: .discarded))
        }
        return taken
    }

    /// The error a withdrawn submission's submitter gets when the journal could not be written afresh
    /// without it: `failure`, and that the withdrawal is not known to be on disk.
    private static func withdrawalInDoubt(_ failure: JobStoreError) -> JobStoreError {
        var error = failure
        error.cause += "; the submission's withdrawal is not known to be on disk, so the next opening may restore it"
        return error
    }

    /// Writes the withdrawal of `submission` into the file: its frame is cut off when it is the last one
    /// and where it was written, else a record resolves it. Not synced: the file is in doubt.
    private func withdrawFromFile(_ submission: AwaitingSync, _ state: inout State, _ progress: inout SyncProgress) {
        let sequence = submission.sequence
        if let start = submission.start, state.length == start + submission.length,
            (try? POSIXFile.truncate(state.fd, to: start, path: journalPath)) != nil
        {
            state.length = start
            state.fileLength = start
            state.frames -= 1
            progress.syncedLength = min(progress.syncedLength, start)
        } else {
            let frame = JournalCodec.frame(.resolved(sequence: sequence, resolution: .discarded))
            guard (try? writeFrame(frame, &state)) != nil else {
                state.lastBackgroundError = POSIXFile.failure(
                    journalPath, "the withdrawal of job sequence \(sequence) was not written")
                return
            }
        }
    }

    /// Compacts if needed; a failure leaves the journal as it was and is kept in ``lastBackgroundError``.
    private func compactQuietly() {
        do {
            try compactIfNeeded()
        } catch let error as JobStoreError {
            state.withLock { $0.lastBackgroundError = error }
        } catch {}
    }

    // MARK: - Recovery

    /// Copies the intact jobs of a damaged journal into a new store, leaving the journal untouched.
    ///
    /// For a journal refused with ``JobStoreError/Code/notAJournal`` (a damaged header, say): every
    /// frame that passes its checksum is read by the format version the header names, if this code
    /// reads it, or else by the newest version that can read it, and the unresolved jobs they leave are
    /// written, with their progress, to a new store in `directory`. Open that store afterwards (or move
    /// its journal into place while no store is open). Frames that fail their checksum are skipped and
    /// listed in the result's issues.
    ///
    /// - Parameters:
    ///   - journal: the damaged journal file.
    ///   - directory: the directory of the new store; it must not hold a journal yet.
    /// - Returns: the jobs written to the new store and the problems met reading the damaged one.
    /// - Throws: ``JobStoreError`` when the journal cannot be read or the new store cannot be written.
    public static func salvage(journal: String, into directory: String) throws -> JobStoreContents {
        let fd = try POSIXFile.open(journal, O_RDONLY)
        let bytes: [UInt8]
        do {
            bytes = try POSIXFile.readAll(fd, path: journal)
            POSIXFile.closeDescriptor(fd)
        } catch {
            POSIXFile.closeDescriptor(fd)
            throw error
        }
        let target = directory.hasSuffix("/") ? directory + "journal" : directory + "/journal"
        if POSIXFile.exists(target) {
            throw JobStoreError(
                .invalidConfiguration, path: directory, cause: "salvage needs a directory without a journal")
        }
        // The header's version first, if it names one this code reads; a record it cannot read is read
        // by another version (the header may be the damaged part).
        let named = JournalCodec.version(ofHeader: bytes).flatMap {
            JournalCodec.readableVersions.contains($0) ? $0 : nil
        }
        var replay = JournalReplay()
        let scan = bytes.withUnsafeBytes {
            JournalScan(
                $0, path: journal, version: named ?? JournalCodec.currentVersion, readsOtherVersions: true
            ) { replay.apply($0) }
        }
        let jobs = replay.orderedJobs
        let store = try FileJobStore(
            directory: directory, configuration: Configuration(durability: .batched(window: .seconds(1))))
        for job in jobs { try store.append(.submitted(job)) }
        try store.close()
        return JobStoreContents(jobs: jobs, highestSequence: replay.highestSequence, issues: scan.issues)
    }

    // MARK: - Maintenance

    /// Makes every record appended so far durable.
    ///
    /// When the sync fails, the synchronous submissions it covered are withdrawn and their `append` calls
    /// throw the same error, and the journal is written afresh from memory without them.
    ///
    /// - Throws: when the journal could not be written afresh either; the error names the journal, the
    ///   failed sync and the rewrite's failure.
    public func sync() throws {
        try syncState.withLock { try syncLocked(&$0) }
    }

    /// Rewrites the journal with one record per unresolved job if dead records outweigh live ones.
    public func compactIfNeeded() throws {
        if compactionNeeded { try compact() }
    }

    /// Whether dead records outweigh live ones (and are at least
    /// ``Configuration/compactionMinimumDeadRecords``) in an open journal.
    private var compactionNeeded: Bool {
        state.withLock { state in
            let live = state.replay.count
            let dead = state.frames - live
            return !state.isClosed && dead > live && dead >= configuration.compactionMinimumDeadRecords
        }
    }

    /// Rewrites the journal with one record per unresolved job: a new file, synced, renamed over the old,
    /// then the directory synced.
    ///
    /// - Throws: when the new file could not be written, synced or renamed (the journal is as it was), or
    ///   when the directory's sync failed after the rename (the store writes to the new file, and the next
    ///   sync rewrites the journal again before it acknowledges anything).
    public func compact() throws {
        try syncState.withLock { progress in
            try state.withLock { state in
                guard !state.isClosed else { return }
                let written = try rewriteLocked(&state, &progress)
                commits.withLock { $0.syncedWrites = max($0.syncedWrites, written) }
            }
        }
    }

    /// Writes the journal afresh from memory, one record per unresolved job: a new file, synced, renamed
    /// over the journal, then the directory synced. Returns the number of writes made so far, which the new
    /// file makes durable; the caller holds both locks and publishes that number to the submitters.
    ///
    /// Until the rename, a failure leaves the journal and the store as they were. From the rename on, the
    /// store writes to the new file, whatever fails next: when the directory's sync fails, the new name
    /// may not be on disk, so the error is kept in ``State/rewriteNeeded`` (the next sync rewrites again)
    /// and thrown, and the submissions waiting for a sync go on waiting.
    private func rewriteLocked(_ state: inout State, _ progress: inout SyncProgress) throws -> UInt64 {
        var bytes = JournalCodec.header
        let jobs = state.replay.orderedJobs
        bytes.reserveCapacity(jobs.count * 160)
        for job in jobs { bytes += JournalCodec.frame(.submitted(job)) }
        let fd = try POSIXFile.replaceFile(journalPath, with: bytes)
        POSIXFile.closeDescriptor(state.fd)
        state.fd = fd
        // Written from memory: it holds what a failed sync of the replaced file may have lost.
        state.failedSync = nil
        state.frames = jobs.count
        state.length = bytes.count
        state.fileLength = bytes.count
        state.noAllocationBefore = 0
        state.compactions += 1
        state.isOlderVersion = false
        state.upgradeFailure = nil
        // Their frames are not where they were written: a withdrawal resolves them with a record.
        for index in state.awaitingSync.indices { state.awaitingSync[index].start = nil }
        progress.syncedLength = 0
        do {
            try syncDirectory(directoryFD, directory)
        } catch {
            let failure = error as? JobStoreError ?? JobStoreError(.ioFailure, path: directory, cause: "\(error)")
            state.rewriteNeeded = failure
            throw failure
        }
        state.rewriteNeeded = nil
        // The new file holds every unresolved job, synced under its name: each write so far is on disk.
        state.awaitingSync.removeAll()
        progress.syncedLength = bytes.count
        return state.writes
    }

    /// Syncs and closes the journal and releases the directory's lock; later calls throw
    /// ``JobStoreError/Code/closed``. Deinitializing the store does the same without the sync.
    public func close() throws {
        try syncState.withLock { progress in
            // No write may come between the last sync and the closing, or its submitter would wait for a
            // sync that never comes.
            state.withLock { $0.isClosing = true }
            do {
                try syncLocked(&progress)
            } catch {
                state.withLock { $0.isClosing = false }
                throw error
            }
            state.withLock { state in
                if !state.isClosed {
                    state.isClosed = true
                    // A closed journal is its records alone. Left unsynced: allocated zeros after the
                    // records read as unused space if a crash brings them back.
                    if state.fileLength > state.length { _ = ftruncate(state.fd, off_t(state.length)) }
                    POSIXFile.closeDescriptor(state.fd)
                    _ = flock(directoryFD, LOCK_UN)
                    _ = flock(lockFD, LOCK_UN)
                }
            }
        }
    }

    /// Counts describing the journal now.
    public var statistics: Statistics {
        let synced = syncState.withLock { $0.syncedLength }
        return state.withLock { state in
            Statistics(
                liveJobs: state.replay.count, records: state.frames, bytes: state.length,
                compactions: state.compactions, syncedBytes: min(synced, state.length))
        }
    }

    /// The task that syncs the batched writes at the end of the current window, if one is scheduled.
    package var backgroundSync: Task<Void, Never>? {
        state.withLock { $0.backgroundSync }
    }

    /// The last error of a background sync, of a compaction, or of a sync made up for by writing the
    /// journal afresh, if any.
    public var lastBackgroundError: JobStoreError? {
        state.withLock { $0.lastBackgroundError }
    }

    private var syncWindow: Duration {
        if case .batched(let window) = configuration.durability { return window }
        return .seconds(1)
    }

    /// A task that syncs the batched writes one window from now, on the injected clock. The sync itself (a
    /// blocking `fdatasync`) runs on ``syncQueue``, never on a thread of the Swift pool.
    ///
    /// Created inside the critical section that records it, so the task (which clears the record under
    /// the same lock) always finds it recorded.
    private func backgroundSyncTask() -> Task<Void, Never> {
        let sleep = clock.sleeper(for: syncWindow)
        return Task.detached { [weak self] in
            do { try await sleep() } catch { return }
            guard let store = self else { return }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                store.syncQueue.async {
                    store.syncBatchedWrites()
                    continuation.resume()
                }
            }
        }
    }

    private func syncBatchedWrites() {
        state.withLock { $0.backgroundSync = nil }
        do {
            try sync()
        } catch let error as JobStoreError {
            state.withLock { $0.lastBackgroundError = error }
        } catch {}
    }
}
