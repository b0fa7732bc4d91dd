extension SyncJobHandle: CustomStringConvertible {
    /// The job's id and its state now, as ``state`` reads: `upload-42: waiting for [unmetered]`,
    /// `upload-42: running attempt 2`, and once the job has ended its outcome (`upload-42: succeeded`,
    /// `upload-42: failed: <the error>`).
    public var description: String {
        "\(id): \(state)"
    }
}
