#if os(Linux)
    import Foundation
    import SyncGateCLI
    import SyncGateTesting
    import Testing

    /// A `syncgate` started with its descriptors all but used up (a low `ulimit -n`, the rest held by its
    /// parent): a command says so in one line and exits 1; it trapped in its signal watcher before.
    @Suite(.timeLimit(.minutes(1)))
    struct DescriptorExhaustionTests {
        /// Runs `arguments` through bash with a limit of 20 descriptors and all but `free` of them open.
        func runWithFreeDescriptors(_ free: Int, _ arguments: [String]) throws -> (stderr: String, status: Int32) {
            let tool = try #require(ToolProcess.path, "the syncgate executable was not found")
            let last = 19 - free
            let script =
                "ulimit -n 20; for ((i = 3; i <= \(last); i++)); do eval \"exec $i</dev/null\"; done; "
                + "exec \"$0\" \"$@\""
            let process = try SpawnedProcess("/bin/bash", ["-c", script, tool] + arguments)
            process.closeInput()
            let (_, status) = try process.finish(before: .now + .seconds(20))
            return (process.stderrText, status)
        }

        @Test func aClientWithoutDescriptorsForItsSignalWatcherSaysSo() throws {
            let (stderr, status) = try runWithFreeDescriptors(1, ["jobs"])
            #expect(status == ExitCode.failure)
            #expect(stderr.hasPrefix("syncgate: cannot watch signals: "), "\(stderr)")
            #expect(stderr.hasSuffix(": Too many open files\n"), "\(stderr)")
            #expect(stderr.split(separator: "\n").count == 1, "\(stderr)")
        }
    }
#endif
