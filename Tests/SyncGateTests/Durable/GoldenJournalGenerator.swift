import Foundation
import Testing

/// Writes the golden journal files; skipped unless `SYNCGATE_WRITE_GOLDEN_JOURNALS=1` (see ``GoldenJournal``).
@Suite("GoldenJournalGenerator", .timeLimit(.minutes(1)))
struct GoldenJournalGenerator {
    @Test(
        "write the golden journal files of the current format version",
        .enabled(if: ProcessInfo.processInfo.environment["SYNCGATE_WRITE_GOLDEN_JOURNALS"] == "1"))
    func write() throws {
        try GoldenJournal.writeFiles()
    }
}
