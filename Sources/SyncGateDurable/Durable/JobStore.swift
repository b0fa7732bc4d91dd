/// Where durable jobs are kept from before `submit` returns until they resolve.
///
/// ``FileJobStore`` is the default. A store applies records in the order they are appended; the
/// scheduler appends from several threads but never two records for one job at once.
///
/// - Important: a ``JobRecord/submitted(_:)`` record must be as durable as the store promises when
///   ``append(_:)`` returns. Other records may be made durable later: losing one only makes a job run
///   again after a crash (at-least-once), never lose it.
public protocol JobStore: AnyObject, Sendable {
    /// The unresolved jobs in submission order, and the problems met reading the store.
    func load() throws -> JobStoreContents

    /// Appends one record.
    ///
    /// - Throws: ``JobStoreError`` naming the path and the cause when the record cannot be written;
    ///   the store is then unchanged.
    func append(_ record: JobRecord) throws

    /// Appends one record as ``append(_:)`` does, suspending the calling task rather than blocking its
    /// thread while the record is made as durable as the store promises.
    ///
    /// The durable layer's ``DurableScheduler/submitWithoutBlocking(_:)`` calls it. The default calls
    /// ``append(_:)``: right for a store whose appends return without waiting for a disk.
    ///
    /// - Throws: what ``append(_:)`` throws; the store is then unchanged.
    func appendWithoutBlocking(_ record: JobRecord) async throws

    /// Makes every record appended so far as durable as a ``JobRecord/submitted(_:)`` record is when its
    /// append returns. The durable layer calls it where the order in which records become durable
    /// matters: before the resolution of a job whose dependents were just told how it ended, so that no
    /// crash keeps the resolution and loses what the dependents were told. The default does nothing.
    ///
    /// - Throws: ``JobStoreError`` when the records cannot be made durable.
    func sync() throws

    /// Makes every record appended so far durable and releases the store (its lock, its files); later
    /// appends fail. Closing twice does nothing more. The default does nothing.
    func close() throws
}

extension JobStore {
    /// Calls ``append(_:)``: a store whose appends do not wait for a disk needs nothing else.
    public func appendWithoutBlocking(_ record: JobRecord) async throws {
        try append(record)
    }

    /// Does nothing: a store whose appends are as durable as they get when they return.
    public func sync() throws {}

    /// Does nothing: a store with nothing to release.
    public func close() throws {}
}

/// What a ``JobStore`` holds: the unresolved jobs and what went wrong reading them.
public struct JobStoreContents: Sendable {
    /// The unresolved jobs, in submission order.
    public var jobs: [StoredJob]
    /// The highest sequence number the store has seen, resolved jobs included.
    public var highestSequence: UInt64
    /// Problems met reading the store: skipped records and a truncated tail.
    public var issues: [JobStoreIssue]

    /// Creates the contents.
    public init(jobs: [StoredJob], highestSequence: UInt64, issues: [JobStoreIssue] = []) {
        self.jobs = jobs
        self.highestSequence = highestSequence
        self.issues = issues
    }
}
