extension SyncJobOptions {
    /// Why the journal cannot keep these options, naming the field and its value, or `nil` when it
    /// can: the journal keeps these options, but restoring dependencies (and appends, which are
    /// dependencies) is not done yet, so a durable job with one is rejected rather than restored
    /// without it.
    var durableLimitation: String? {
        if !dependsOn.isEmpty {
            return "dependsOn is not supported for durable jobs yet, got \(dependsOn)"
        }
        if onDuplicate == .append || onDuplicate == .appendOrReplace {
            return "onDuplicate \(onDuplicate) is not supported for durable jobs yet"
        }
        return nil
    }
}
