import SyncGateCore

extension DurableScheduler {
    /// The largest encoded payload a durable job may have: 64 MiB.
    ///
    /// ``submit(_:)`` refuses a larger one with ``DurableJobError/payloadTooLarge(jobID:size:limit:)``;
    /// ``FileJobStore`` reads records of this payload size plus room for the job's other fields, and
    /// refuses to write a record it could not read back.
    public static let maximumPayloadSize = 64 << 20

    /// The most bytes a durable job's names may take together: 512 KiB.
    ///
    /// The names are its id, unique key, serial group, tags, conditions, dependencies, file-trigger paths
    /// and allowed networks, counted in UTF-8 bytes plus 8 for each entry (what a record spends on its
    /// length). ``submit(_:)`` refuses a job whose names take more, naming the largest of those fields and
    /// its size, and stores nothing: the journal keeps room beside the payload for a job's other fields,
    /// and a record beyond it could not be read back.
    public static let maximumNamesSize = 512 << 10

    /// The longest duration a durable job's option may have: 100 years.
    ///
    /// The journal keeps delays and start deadlines as wall-clock instants and restores them as
    /// durations; ``submit(_:)`` refuses every duration option longer than this, naming the field and the
    /// value: `delay`, `startDeadline`, `runTimeout`, the retry backoff's delays, the period's interval
    /// and flex, the calendar's window and randomized delay, the relaxations' waits and the file
    /// trigger's quiet period.
    public static let maximumDuration = Duration.seconds(100 * 365 * 86_400)

    /// The highest sequence number a durable job may have: 2^62.
    ///
    /// ``FileJobStore`` reads a record of a higher sequence number as malformed (skipped and reported, like
    /// any damaged record). Once a job has this one, or the store reports it or a higher one as its
    /// highest, ``submit(_:)`` throws ``DurableJobError/storeFailed(_:)`` with
    /// ``JobStoreError/Code/sequencesExhausted`` and stores nothing.
    public static let maximumSequence: UInt64 = 1 << 62
}
