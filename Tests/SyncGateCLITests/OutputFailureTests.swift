#if os(Linux)
    import Foundation
    import SyncGateTesting
    import Testing

    /// A command whose output cannot be written (a full disk: `/dev/full`) says so and fails, instead of
    /// exiting 0 with its output lost.
    @Suite(.startsProcesses, .timeLimit(.minutes(1)))
    struct OutputFailureTests {
        @Test(arguments: [["status"], ["status", "--json"], ["watch", "--json"], ["help"]])
        func aFullDiskFailsTheCommand(arguments: [String]) throws {
            let tool = try #require(ToolProcess.path, "the syncgate executable was not found")
            let run = try SpawnedProcess("/bin/sh", ["-c", #"exec "$@" > /dev/full"#, "sh", tool] + arguments)
            defer { run.stop() }
            run.closeInput()
            try run.waitForStderr(
                containing: "syncgate: cannot write the output: No space left on device (errno 28)",
                within: .seconds(20))
            let (_, status) = try run.finish(before: .now + .seconds(20))
            #expect(status == 1)
        }
    }
#endif
