#if os(Linux)
    import Foundation
    import SyncGateCLI
    import SyncGateTesting
    import Testing

    /// A `syncgate` started with its descriptors all but used up (a low `ulimit -n`, the rest held by its
    /// parent): a command says so in one line and exits 1, before it opens anything. Without the check it
    /// trapped in its signal watcher or inside libdispatch (a few free), or, with about ten free, `run
    /// --require network` waited for a network that was up, its observer having no socket.
    @Suite(.timeLimit(.minutes(2)))
    struct DescriptorExhaustionTests {
        /// The process's descriptor limit in these tests.
        static let limit = 64

        /// Runs `arguments` through bash with a limit of ``limit`` descriptors and all but `free` of them
        /// open.
        func runWithFreeDescriptors(_ free: Int, _ arguments: [String]) throws -> (stderr: String, status: Int32) {
            let tool = try #require(ToolProcess.path, "the syncgate executable was not found")
            let last = Self.limit - 1 - free
            let script =
                "ulimit -n \(Self.limit); for ((i = 3; i <= \(last); i++)); do eval \"exec $i</dev/null\"; done; "
                + "exec \"$0\" \"$@\""
            let process = try SpawnedProcess("/bin/bash", ["-c", script, tool] + arguments)
            process.closeInput()
            let (_, status) = try process.finish(before: .now + .seconds(20))
            return (process.stderrText, status)
        }

        static let commands: [[String]] = [
            ["jobs"],
            ["status"],
            ["wait", "--require", "network", "--timeout", "1s"],
            ["run", "--require", "network", "--timeout", "1s", "--", "true"],
            ["watch"],
            ["daemon"],
        ]

        @Test(arguments: commands, [1, 4, 10, DescriptorReserve.needed - 1])
        func aCommandShortOfDescriptorsSaysSoAndExits(_ arguments: [String], free: Int) throws {
            let (stderr, status) = try runWithFreeDescriptors(free, arguments)
            #expect(status == ExitCode.failure, "\(arguments), \(free) free: \(stderr)")
            #expect(
                stderr == "syncgate: too few free file descriptors: \(free) could be opened, syncgate needs "
                    + "\(DescriptorReserve.needed) (limit \(Self.limit); raise it with 'ulimit -n')\n")
        }

        /// With exactly the descriptors needed free, a command runs: the check closes the descriptors it
        /// opened (had it kept them, the command would have none left for its signal watcher, and exit 1).
        @Test func aCommandWithEnoughDescriptorsRuns() throws {
            let (stderr, status) = try runWithFreeDescriptors(
                DescriptorReserve.needed, ["run", "--require", "none", "--", "true"])
            #expect(status == ExitCode.success, "\(stderr)")
            #expect(stderr.isEmpty, "\(stderr)")
        }
    }
#endif
