#if os(Linux)
    import Foundation
    import Glibc
    import SyncGateTestSupport
    import Testing

    /// Calendar jobs of `syncgate daemon` end to end, on the machine's real wall clock: a job scheduled a
    /// few seconds ahead (`--on-calendar 'HH:MM:SS UTC'`) survives a SIGKILL of the daemon and runs
    /// exactly once at its time, and one whose window closed while the daemon was down runs once when it
    /// comes back. Needs root and iproute2; skips elsewhere unless SYNCGATE_REQUIRE_NETNS=1.
    @Suite(.startsProcesses, .enabled(if: NetnsSupport.isEnabled, NetnsSupport.skipComment), .timeLimit(.minutes(3)))
    struct NetnsDaemonCalendarTests {
        func withDaemon(_ body: (DaemonHarness) throws -> Void) throws {
            let topology = try NetnsTopology()
            defer { topology.destroy() }
            try topology.configureIPv4(defaultRoute: true)
            let harness = try DaemonHarness(topology: topology)
            defer { harness.destroy() }
            try body(harness)
        }

        /// `HH:MM:SS UTC` of a whole second, as `--on-calendar` takes it.
        static func expression(_ date: Date) -> String {
            var utc = Calendar(identifier: .gregorian)
            utc.timeZone = TimeZone(identifier: "UTC")!
            let parts = utc.dateComponents([.hour, .minute, .second], from: date)
            return String(format: "*-*-* %02d:%02d:%02d UTC", parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
        }

        /// The next whole second at least `seconds` from now.
        static func ahead(_ seconds: Double) -> Date {
            Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + seconds).rounded(.up))
        }

        static func date(_ text: Any?) -> Date? {
            guard let text = text as? String else { return nil }
            if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) {
                return date
            }
            return try? Date(text, strategy: .iso8601)
        }

        func submit(_ harness: DaemonHarness, at target: Date, window: String) throws -> String {
            let submitted = try harness.client([
                "submit", "--on-calendar", Self.expression(target), "--window", window, "--require", "network",
                "--name", "nightly", "--", "true",
            ])
            #expect(submitted.status == 0, "\(submitted)")
            let id = submitted.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            try #require(!id.isEmpty)
            return id
        }

        @Test func aCalendarJobSurvivesAKilledDaemonAndRunsOnceAtItsTime() throws {
            try withDaemon { harness in
                try harness.startDaemon()
                let target = Self.ahead(6)
                let id = try submit(harness, at: target, window: "30s")
                // What holds only before the occurrence is checked on answers the daemon gave before it: on
                // a loaded machine the kill and restart can take past the target, which then tests the
                // catch-up path's timing instead and must not fail.
                let planned = try harness.job(id)
                if Date() < target { #expect(Self.date(planned["nextScheduledAt"]) == target) }
                let table = try harness.client(["jobs"]).stdout
                #expect(table.contains("NEXT"), "\(table)")
                if Date() < target { #expect(table.contains(target.formatted(.iso8601)), "\(table)") }
                try harness.killDaemon()
                try harness.startDaemon()
                let replanned = try harness.job(id)
                let early = try harness.runs(id)
                if Date() < target {
                    #expect(Self.date(replanned["nextScheduledAt"]) == target)
                    #expect(early.isEmpty, "it ran before its time: \(harness.logText)")
                }
                try harness.eventually("the job ran", within: .seconds(40)) { try harness.runs(id).count == 1 }
                let run = try #require(try harness.runs(id).first)
                let started = try #require(Self.date(run["startedAt"]))
                #expect(started >= target && started < target.addingTimeInterval(30), "\(run)")
                // It waits for tomorrow's occurrence, having run once.
                try harness.eventually("the next occurrence is planned") {
                    Self.date(try harness.job(id)["nextScheduledAt"]) == target.addingTimeInterval(86_400)
                }
                #expect(try harness.runs(id).count == 1)
            }
        }

        @Test func anOccurrenceMissedWhileTheDaemonWasDownRunsOnceWhenItReturns() throws {
            try withDaemon { harness in
                try harness.startDaemon()
                let target = Self.ahead(2)
                let id = try submit(harness, at: target, window: "1s")
                try harness.killDaemon()
                // The daemon stays down until the occurrence's window has closed.
                try harness.eventually("the window closed", within: .seconds(10)) {
                    Date() > target.addingTimeInterval(1.5)
                }
                let restarted = Date()
                try harness.startDaemon()
                try harness.eventually("the missed occurrence ran", within: .seconds(40)) {
                    try harness.runs(id).count == 1
                }
                let run = try #require(try harness.runs(id).first)
                let started = try #require(Self.date(run["startedAt"]))
                #expect(started >= restarted, "\(run)")
                try harness.eventually("the next occurrence is planned") {
                    Self.date(try harness.job(id)["nextScheduledAt"]) == target.addingTimeInterval(86_400)
                }
                #expect(try harness.runs(id).count == 1)
            }
        }
    }
#endif
