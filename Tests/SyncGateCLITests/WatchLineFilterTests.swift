import SyncGate
import SyncGateCLI
import Testing

@Suite("watch line filter", .timeLimit(.minutes(1)))
struct WatchLineFilterTests {
    static let gib: UInt64 = 1 << 30

    static func report(free: UInt64, connected: Bool = true, time: String) -> StatusReport {
        let status = SyncEnvironmentStatus(
            connectivity: connected ? .connected(via: .wiredEthernet) : .disconnected,
            monitoredParts: [.network, .storage],
            storage: StorageStatus(path: "/", availableBytes: free, capacityBytes: 100 * gib)
        )
        return StatusReport(status: status, interfaceName: nil, time: time)
    }

    /// Free space in bytes, whether connected, and whether the text filter prints a line for it.
    static let steps: [(free: UInt64, connected: Bool, printed: Bool)] = [
        (40 * gib, true, true),  // the first status is always printed
        (40 * gib + 4_096, true, false),  // a few bytes written: "40.0 GiB free" again
        (40 * gib - 12_288, true, false),  // and removed: still "40.0 GiB free"
        (40 * gib - 12_288, false, true),  // the network goes
        (40 * gib - 8_192, false, false),
        (39 * gib, false, true),  // a visible change of free space
        (39 * gib, true, true),
        (2 * gib, true, true),  // low: "(low)" and storage-not-low unmet
    ]

    @Test("text prints a status only when its line reads differently; JSON prints every status")
    func printsOnlyVisibleChanges() {
        var text = WatchLineFilter(json: false, style: .plain)
        var json = WatchLineFilter(json: true, style: .plain)
        var printedTimes: [String] = []
        for (index, step) in Self.steps.enumerated() {
            let report = Self.report(free: step.free, connected: step.connected, time: "T\(index)")
            let line = text.line(for: report)
            #expect((line != nil) == step.printed, "step \(index): \(report.watchSummary(style: .plain))")
            if let line {
                #expect(line == "T\(index) " + report.watchSummary(style: .plain))
                printedTimes.append("T\(index)")
            }
            #expect(json.line(for: report) == report.json.compact)
        }
        #expect(printedTimes == ["T0", "T3", "T5", "T6", "T7"])
    }
}
