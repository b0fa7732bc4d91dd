#if os(Linux)
    import Foundation
    import SyncGateTesting
    import Testing

    /// The test-side child process: what a missed deadline reports.
    @Suite struct SpawnedProcessTests {
        /// A child that misses a deadline is reported with every thread's stack (when `gdb` is installed), so
        /// a stall seen once in CI can be told from a slow machine without reproducing it.
        @Test(
            .timeLimit(.minutes(1)),
            .enabled(
                if: FileManager.default.isExecutableFile(atPath: "/usr/bin/gdb"),
                "gdb is not installed (`.ci/run` installs it): a report has no stacks to show without it"))
        func missedDeadlineReportsTheChildsStacks() throws {
            let child = try SpawnedProcess("/bin/sleep", ["30"])
            defer { child.stop() }
            do {
                _ = try child.nextLine(within: .milliseconds(100))
                Issue.record("sleep printed a line")
            } catch let failure as SpawnedProcess.Failure {
                #expect(failure.message.contains("threads of \(child.pid) at the deadline:"), "\(failure.message)")
                #expect(failure.message.contains("#0 "), "\(failure.message)")
            }
        }
    }
#endif
