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
/// ``load()``'s issues, never thrown. When records of resolved jobs outnumber those of unresolved ones
/// (and at least ``Configuration/compactionMinimumDeadRecords`` are dead), the journal is rewritten
/// with one record per unresolved job: a new file, synced, then renamed over the old one. Compaction
/// is maintenance: when it fails (a full disk, say) the journal stays as it is, the temporary file is
/// removed, the failure is kept in ``lastBackgroundError``, and neither ``append(_:)`` nor opening
/// fails because of it.
///
/// A journal whose header is damaged is refused with ``JobStoreError/Code/notAJournal`` and left as it
/// is: a header that is not one, or one naming a format version its intact records are not written
/// in (opening it would drop them); ``salvage(journal:into:)`` copies its intact jobs into a new store.
///
/// Durability: with ``Configuration/Durability/synchronous`` (the default) a submission is on disk
/// (`fdatasync`) before ``append(_:)`` returns. With ``Configuration/Durability/batched(window:)`` it
/// is written to the file at once (so it survives the process being killed) and synced within the
/// window (so a power loss may lose the submissions of the last window). Other records (attempts,
/// resolutions) are written at once and synced within the window, or within one second in
/// synchronous mode; losing one to a power loss only makes a job run again. When the sync of a
/// submission fails, the submission is withdrawn (cut from the file, or followed by a record that
/// resolves it) before ``append(_:)`` throws, so the job does not come back.
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
        /// Whether a missing directory (and its parents) is created.
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
        /// The file's length in bytes.
        public var bytes: Int
        /// How many times the journal was compacted since it was opened.
        public var compactions: Int
        /// How many of ``bytes`` are known to be on disk (synced); less than ``bytes`` while a batched
        /// write waits for its window.
        public var syncedBytes: Int
    }

    private struct State {
        var fd: Int32
        var replay: JournalReplay
        var frames: Int
        var length: Int
        var issues: [JobStoreIssue]
        /// The task that syncs the batched writes at the end of the window; `nil` while none is scheduled.
        var backgroundSync: Task<Void, Never>?
        var isClosed = false
        var compactions = 0
        var lastBackgroundError: JobStoreError?
        /// Whether the file was written in an older format version; it is rewritten when opened.
        var isOlderVersion = false
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
    /// Serialises syncs and compaction (taken before `state`); holds the length known to be on disk.
    private let syncState = LockedState(0)
    /// Times the batched syncs.
    private let clock: any Clock<Duration>

    /// Opens (or creates) the store in `directory`, reads the journal and cuts a torn tail.
    ///
    /// - Throws: ``JobStoreError`` naming the path and the cause: the directory is missing (and not to
    ///   be created), not a directory, read-only or full, locked by another store, or the journal is not
    ///   a SyncGate journal.
    /// - Parameters:
    ///   - directory: the directory of the journal and its lock.
    ///   - configuration: how the store writes.
    ///   - clock: the clock that times a batched sync's window (``Configuration/Durability/batched(window:)``).
    public init(
        directory: String, configuration: Configuration = Configuration(),
        clock: any Clock<Duration> = ContinuousClock()
    ) throws {
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
                throw JobStoreError(.directoryMissing, path: directory, cause: POSIXFile.cause(ENOENT))
            }
            if let code = POSIXFile.makeDirectories(directory) {
                throw JobStoreError(.cannotCreateDirectory, path: directory, cause: POSIXFile.cause(code))
            }
        }

        let lockPath = directory + "/lock"
        let lockFD = try POSIXFile.open(lockPath, O_RDWR | O_CREAT)
        if flock(lockFD, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            POSIXFile.closeDescriptor(lockFD)
            throw JobStoreError(.locked, path: lockPath, cause: POSIXFile.cause(code))
        }
        // The lock file can be deleted under its holder, the directory cannot: lock that too.
        let directoryFD: Int32
        do {
            directoryFD = try POSIXFile.open(directory, O_RDONLY | O_DIRECTORY)
        } catch {
            POSIXFile.closeDescriptor(lockFD)
            throw error
        }
        if flock(directoryFD, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            POSIXFile.closeDescriptor(directoryFD)
            POSIXFile.closeDescriptor(lockFD)
            throw JobStoreError(.locked, path: directory, cause: POSIXFile.cause(code))
        }
        self.lockFD = lockFD
        self.directoryFD = directoryFD
        do {
            // A compaction that failed left its temporary file, which may hold the last free space.
            POSIXFile.remove(journalPath + ".tmp")
            self.state = LockedState(try Self.openJournal(journalPath, directory: directory))
        } catch {
            POSIXFile.closeDescriptor(directoryFD)
            POSIXFile.closeDescriptor(lockFD)
            throw error
        }
        if state.withLock({ $0.isOlderVersion }) {
            try compact()
        } else {
            // Opening never depends on free space: the journal reads as it is.
            compactQuietly()
        }
    }

    deinit {
        state.withLock { state in
            if !state.isClosed { POSIXFile.closeDescriptor(state.fd) }
        }
        POSIXFile.closeDescriptor(directoryFD)
        POSIXFile.closeDescriptor(lockFD)
    }

    private static func openJournal(_ path: String, directory: String) throws -> State {
        var bytes: [UInt8] = []
        if POSIXFile.exists(path) {
            let fd = try POSIXFile.open(path, O_RDONLY)
            defer { POSIXFile.closeDescriptor(fd) }
            bytes = try POSIXFile.readAll(fd, path: path)
        }
        if bytes.count < JournalCodec.header.count && JournalCodec.header.starts(with: bytes) {
            // A new journal, or one whose creation never completed: write the header atomically.
            try POSIXFile.replaceFile(path, with: JournalCodec.header, directory: directory)
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
        let scan = bytes.withUnsafeBytes { JournalScan($0, path: path, version: version) }
        if let (offset, other) = scan.recordOfOtherVersion {
            // Opening would drop every record the header's version cannot read, and rewrite the file
            // without them: leave it untouched instead.
            throw JobStoreError(
                .notAJournal, path: path,
                cause: "the header names format version \(version), but the record at offset \(offset) is one of "
                    + "version \(other), so the header is damaged; FileJobStore.salvage(journal: \"\(path)\", "
                    + "into: <a new directory>) copies its intact jobs into a new store")
        }
        let fd = try POSIXFile.open(path, O_WRONLY | O_APPEND)
        if scan.validLength < bytes.count {
            do {
                try POSIXFile.truncate(fd, to: scan.validLength, path: path)
                try POSIXFile.syncData(fd, path: path)
            } catch {
                POSIXFile.closeDescriptor(fd)
                throw error
            }
        }
        var replay = JournalReplay()
        for record in scan.records { replay.apply(record) }
        return State(
            fd: fd, replay: replay, frames: scan.frameCount, length: scan.validLength, issues: scan.issues,
            isOlderVersion: version != JournalCodec.currentVersion)
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
    /// throw.
    public func append(_ record: JobRecord) throws {
        let body = JournalCodec.encode(record)
        guard body.count <= JournalCodec.maximumBodyLength else {
            throw JobStoreError(
                .recordTooLarge, path: journalPath,
                cause: "a record of job sequence \(record.sequence) is \(body.count) bytes, over the limit of "
                    + "\(JournalCodec.maximumBodyLength) bytes")
        }
        let frame = JournalCodec.frame(body: body)
        var isSubmission = false
        if case .submitted = record { isSubmission = true }
        let syncsNow = isSubmission && configuration.durability == .synchronous
        let start: Int = try state.withLock { state in
            if state.isClosed { throw JobStoreError(.closed, path: journalPath, cause: "append after close()") }
            let start = state.length
            do {
                try POSIXFile.writeAll(state.fd, frame, path: journalPath)
            } catch {
                // Remove a partial frame so the file stays well formed; the store is unchanged.
                try? POSIXFile.truncate(state.fd, to: state.length, path: journalPath)
                throw error
            }
            state.length += frame.count
            state.frames += 1
            state.replay.apply(record)
            if !syncsNow && state.backgroundSync == nil { state.backgroundSync = backgroundSyncTask() }
            return start
        }
        if syncsNow {
            do {
                try sync()
            } catch {
                withdraw(record.sequence, frameAt: start, length: frame.count)
                throw error
            }
        }
        if isSubmission { compactQuietly() }
    }

    /// Takes back a submission whose sync failed: its bytes may or may not be on the disk. The frame is
    /// cut off when it is still the last one, else a record resolves it; either way the job is gone.
    private func withdraw(_ sequence: UInt64, frameAt start: Int, length: Int) {
        syncState.withLock { synced in
            state.withLock { state in
                guard !state.isClosed else { return }
                state.replay.apply(.resolved(sequence: sequence, resolution: .discarded))
                if state.length == start + length,
                    (try? POSIXFile.truncate(state.fd, to: start, path: journalPath)) != nil
                {
                    state.length = start
                    state.frames -= 1
                    synced = min(synced, start)
                } else {
                    let frame = JournalCodec.frame(.resolved(sequence: sequence, resolution: .discarded))
                    guard (try? POSIXFile.writeAll(state.fd, frame, path: journalPath)) != nil else {
                        try? POSIXFile.truncate(state.fd, to: state.length, path: journalPath)
                        state.lastBackgroundError = POSIXFile.failure(
                            journalPath, "the withdrawal of job sequence \(sequence) was not written")
                        return
                    }
                    state.length += frame.count
                    state.frames += 1
                }
                _ = try? POSIXFile.syncData(state.fd, path: journalPath)
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
        let scan = bytes.withUnsafeBytes {
            JournalScan(
                $0, path: journal, version: named ?? JournalCodec.currentVersion, readsOtherVersions: true)
        }
        var replay = JournalReplay()
        for record in scan.records { replay.apply(record) }
        let jobs = replay.orderedJobs
        let store = try FileJobStore(
            directory: directory, configuration: Configuration(durability: .batched(window: .seconds(1))))
        for job in jobs { try store.append(.submitted(job)) }
        try store.close()
        return JobStoreContents(jobs: jobs, highestSequence: replay.highestSequence, issues: scan.issues)
    }

    // MARK: - Maintenance

    /// Makes every record appended so far durable.
    public func sync() throws {
        try syncState.withLock { synced in
            let (fd, length, isClosed) = state.withLock { ($0.fd, $0.length, $0.isClosed) }
            guard !isClosed, synced < length else { return }
            try POSIXFile.syncData(fd, path: journalPath)
            synced = length
        }
    }

    /// Rewrites the journal with one record per unresolved job if dead records outweigh live ones.
    public func compactIfNeeded() throws {
        let needed = state.withLock { state in
            let live = state.replay.jobs.count
            let dead = state.frames - live
            return !state.isClosed && dead > live && dead >= configuration.compactionMinimumDeadRecords
        }
        if needed { try compact() }
    }

    /// Rewrites the journal with one record per unresolved job: a new file, synced, renamed over the old.
    public func compact() throws {
        try syncState.withLock { synced in
            try state.withLock { state in
                guard !state.isClosed else { return }
                var bytes = JournalCodec.header
                let jobs = state.replay.orderedJobs
                bytes.reserveCapacity(jobs.count * 160)
                for job in jobs { bytes += JournalCodec.frame(.submitted(job)) }
                try POSIXFile.replaceFile(journalPath, with: bytes, directory: directory)
                let fd = try POSIXFile.open(journalPath, O_WRONLY | O_APPEND)
                POSIXFile.closeDescriptor(state.fd)
                state.fd = fd
                state.frames = jobs.count
                state.length = bytes.count
                state.compactions += 1
                state.isOlderVersion = false
                synced = bytes.count
            }
        }
    }

    /// Syncs and closes the journal and releases the directory's lock; later calls throw
    /// ``JobStoreError/Code/closed``. Deinitializing the store does the same without the sync.
    public func close() throws {
        try sync()
        syncState.withLock { _ in
            state.withLock { state in
                if !state.isClosed {
                    state.isClosed = true
                    POSIXFile.closeDescriptor(state.fd)
                    _ = flock(directoryFD, LOCK_UN)
                    _ = flock(lockFD, LOCK_UN)
                }
            }
        }
    }

    /// Counts describing the journal now.
    public var statistics: Statistics {
        let synced = syncState.withLock { $0 }
        return state.withLock { state in
            Statistics(
                liveJobs: state.replay.jobs.count, records: state.frames, bytes: state.length,
                compactions: state.compactions, syncedBytes: min(synced, state.length))
        }
    }

    /// The task that syncs the batched writes at the end of the current window, if one is scheduled.
    package var backgroundSync: Task<Void, Never>? {
        state.withLock { $0.backgroundSync }
    }

    /// The last error of a background sync or of a compaction, if any.
    public var lastBackgroundError: JobStoreError? {
        state.withLock { $0.lastBackgroundError }
    }

    private var syncWindow: Duration {
        if case .batched(let window) = configuration.durability { return window }
        return .seconds(1)
    }

    /// A task that syncs the batched writes one window from now, on the injected clock. The sync itself (a
    /// blocking `fdatasync`) runs on a dispatch thread, never on a thread of the Swift pool.
    ///
    /// Created inside the critical section that records it, so the task (which clears the record under
    /// the same lock) always finds it recorded.
    private func backgroundSyncTask() -> Task<Void, Never> {
        let sleep = clock.sleeper(for: syncWindow)
        return Task.detached { [weak self] in
            do { try await sleep() } catch { return }
            guard let store = self else { return }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().async {
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
