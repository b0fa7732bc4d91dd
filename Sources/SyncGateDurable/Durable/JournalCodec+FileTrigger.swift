import SyncGateCore

/// A job's ``SyncFileTrigger`` in the journal, from format version 7: appended to the options after the
/// allowed networks as a presence flag, then the paths (a count and each string, in order) and the
/// quiet period (a duration). A file-triggered job's `periodEnded` record holds the start of the run
/// that ended, as its anchor.
extension JournalCodec {
    static func encodeFileTrigger(_ trigger: SyncFileTrigger?, into writer: inout JournalWriter) {
        writer.bool(trigger != nil)
        guard let trigger else { return }
        writer.strings(trigger.paths)
        writer.duration(trigger.quietPeriod)
    }

    static func decodeFileTrigger(_ reader: inout JournalReader) throws -> SyncFileTrigger? {
        guard try reader.bool() else { return nil }
        let paths = try reader.strings()
        return SyncFileTrigger(paths: paths, quietPeriod: try reader.duration())
    }
}
