#if os(Linux)
    import Foundation
    import SyncGateCLI
    import SyncGateTesting
    import Testing

    /// A `syncgate` started with a standard descriptor closed keeps that number for `/dev/null`, so none of
    /// its sockets takes it: before, `status >&-` wrote its lines into a netlink socket and exited 0, and
    /// `watch >&-` into an eventfd.
    @Suite(.timeLimit(.minutes(1)))
    struct ClosedStandardDescriptorTests {
        /// Runs `arguments` through bash with `redirection` (such as `>&-`) applied to the tool.
        func run(_ arguments: [String], _ redirection: String) throws -> (stdout: String, stderr: String, status: Int32)
        {
            let tool = try #require(ToolProcess.path, "the syncgate executable was not found")
            let process = try SpawnedProcess(
                "/bin/bash", ["-c", "exec \"$0\" \"$@\" \(redirection)", tool] + arguments)
            process.closeInput()
            let (stdout, status) = try process.finish(before: .now + .seconds(20))
            return (stdout, process.stderrText, status)
        }

        @Test(arguments: [["status"], ["watch"], ["status", "--json"]])
        func outputToAClosedStdoutFailsAsAWriteError(_ arguments: [String]) throws {
            let (_, stderr, status) = try run(arguments, ">&-")
            #expect(status == ExitCode.failure, "\(stderr)")
            #expect(stderr == "syncgate: cannot write the output: Bad file descriptor (errno 9)\n")
        }

        /// What `run`'s command finds on the descriptor its parent had closed: the same `/dev/null`.
        @Test(arguments: [(0, "<&-"), (2, "2>&-")])
        func aCommandInheritsDevNullWhereTheToolHadNothing(descriptor: Int, redirection: String) throws {
            let (stdout, stderr, status) = try run(
                ["run", "--require", "none", "--", "readlink", "/proc/self/fd/\(descriptor)"], redirection)
            #expect(status == ExitCode.success, "\(stderr)")
            #expect(stdout == "/dev/null\n")
        }
    }
#endif
