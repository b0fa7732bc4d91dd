extension SyncJobOptions {
    /// Why the journal cannot keep these options, naming the field and its value, or `nil` when it
    /// can: the journal's format has no place yet for dependencies, periods or appends, so a durable
    /// job with one is rejected rather than restored without it.
    var durableLimitation: String? {
        if !dependsOn.isEmpty {
            return "dependsOn is not supported for durable jobs yet, got \(dependsOn)"
        }
        if let period {
            return "period is not supported for durable jobs yet, got every \(period.interval) flex \(period.flex)"
        }
        if onDuplicate == .append || onDuplicate == .appendOrReplace {
            return "onDuplicate \(onDuplicate) is not supported for durable jobs yet"
        }
        return nil
    }
}
