import Foundation
import SyncGateTestSupport
import Testing

/// `syncgate status` on a machine without a D-Bus system bus: the sources that cannot reach it share one
/// readable note, naming the bus once and the system's reason, not an errno.
@Suite(.startsProcesses)
struct StatusNotesTests {
    @Test(.timeLimit(.minutes(1))) func anUnreachableBusIsOneReadableNote() async throws {
        #if os(Linux)
            let bus = "/nonexistent/syncgate-status-bus"
            let result = try await ToolProcess.run(
                ["status"], environment: ["NO_COLOR": "1", "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=\(bus)"])
            #expect(result.status == 0, "\(result)")
            let notes = result.stdout.split(separator: "\n").filter { $0.contains(bus) }
            try #require(notes.count == 1, "\(result.stdout)")
            let note = String(notes[0])
            #expect(note.components(separatedBy: bus).count == 2, "the path is named more than once: \(note)")
            #expect(!note.contains("errno"), "\(note)")
            #expect(note.hasSuffix("No such file or directory)"), "\(note)")
            #expect(note.hasPrefix("  note: NetworkManager, ModemManager"), "\(note)")
        #endif
    }
}
