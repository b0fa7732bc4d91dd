import Foundation
import SyncGateCLI
import SyncGateTestSupport
import Testing

/// The README's Install section names the release the tool reports.
@Suite(.startsProcesses, .timeLimit(.minutes(1)))
struct ReadmeInstallTests {
    /// The package's README, read from the checkout the tests were built from.
    static func readme() throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    }

    @Test("the README's dependency line and version are the ones `syncgate --version` prints")
    func versionAgreesWithTheTool() async throws {
        let result = try await ToolProcess.run(["--version"])
        #expect(result.status == 0)
        let printed = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(printed == HelpText.version)
        let version = try #require(printed.split(separator: " ").last.map(String.init))
        let readme = try Self.readme()
        #expect(readme.contains(#"from: "\#(version)")"#))
        #expect(readme.contains("`syncgate --version` prints (`\(printed)`)"))
        #expect(readme.contains("release **\(version)**"))
    }
}
