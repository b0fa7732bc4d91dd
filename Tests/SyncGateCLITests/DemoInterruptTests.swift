import Foundation
import SyncGateCLI
import SyncGateTestSupport
import Testing

/// Ctrl-C in `syncgate demo`, on the built binary.
@Suite(.startsProcesses, .timeLimit(.minutes(1)))
struct DemoInterruptTests {
    /// At `--speed 0.1` the demo's timeline takes minutes: its script signs the user in 10 s after the
    /// start, and its jobs are stopped after 120 s. SIGINT, sent as soon as the introduction's first line
    /// arrives, ends it before any of that: exit 130 with the interruption's message as the last line, and
    /// no step of the script reached. A demo that waits for its jobs instead runs into this test's
    /// deadline.
    @Test func sigintEndsTheDemoBeforeItsTimelineGoesOn() async throws {
        let result = try await ToolProcess.run(["demo", "--speed", "0.1"], signalAfterFirstLine: SIGINT)
        #expect(result.status == ExitCode.interrupted)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.first?.hasPrefix("syncgate demo: ") == true, "\(result.stdout)")
        #expect(lines.last == "interrupted; cancelling the jobs", "\(result.stdout)")
        #expect(!result.stdout.contains("* the user signs in"), "\(result.stdout)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
    }
}
