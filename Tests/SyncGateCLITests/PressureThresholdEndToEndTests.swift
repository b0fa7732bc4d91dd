import Foundation
import SyncGateCLI
import SyncGateTestSupport
import Testing

/// Runs the built `syncgate` binary with `--pressure-threshold`: the thresholds reach the process's
/// environment, and `status` shows them.
@Suite(.startsProcesses, .timeLimit(.minutes(1)))
struct PressureThresholdEndToEndTests {
    #if os(Linux)
        @Test func statusJSONReportsTheThresholdsGiven() async throws {
            let result = try await ToolProcess.run(["status", "--json", "--pressure-threshold", "cpu=33"])
            #expect(result.status == 0, "\(result)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let resources = try #require(json["resources"] as? [String: Any])
            let thresholds = try #require(resources["pressureThresholds"] as? [String: Any])
            #expect(thresholds["cpu"] as? Double == 33)
            #expect(thresholds["io"] as? Double == 25)
            #expect(thresholds["memory"] as? Double == 10)
        }

        @Test func statusTextShowsTheThresholdsGiven() async throws {
            let result = try await ToolProcess.run(
                ["status", "--pressure-threshold", "memory=2.5,io=40"], environment: ["NO_COLOR": "1"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.contains("high at cpu 50.00 %, io 40.00 %, memory 2.50 %"), "\(result.stdout)")
        }
    #endif

    @Test func aBadThresholdExitsWithAUsageErrorNamingTheOptionTheResourceAndTheValue() async throws {
        let result = try await ToolProcess.run(["status", "--json", "--pressure-threshold", "cpu=0"])
        #expect(result.status == ExitCode.usage)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr
                == "syncgate: invalid cpu threshold '0' for --pressure-threshold: must be above 0 and at most 100 "
                + "(see 'syncgate status --help')\n")
    }
}
