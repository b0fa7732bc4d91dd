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

#if os(Linux)
    /// Ctrl-\ (SIGQUIT) quits the tool as it does any program, without a crash report.
    @Suite(.startsProcesses, .timeLimit(.minutes(1)))
    struct QuitSignalTests {
        @Test func sigquitQuitsWithoutACrashReport() throws {
            let tool = try #require(ToolProcess.path, "the syncgate executable was not found")
            // No core file left behind by the test.
            let watch = try SpawnedProcess(
                "/bin/sh", ["-c", #"ulimit -c 0; exec "$@""#, "sh", tool, "watch", "--json"])
            defer { watch.stop() }
            watch.closeInput()
            _ = try watch.nextLine(within: .seconds(20))
            watch.signal(SIGQUIT)
            let (_, status) = try watch.finish(before: .now + .seconds(20))
            #expect(status == 128 + SIGQUIT)
            #expect(!watch.stderrText.contains("crashed"), "\(watch.stderrText)")
        }
    }
#endif
